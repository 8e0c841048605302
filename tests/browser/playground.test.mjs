// The playground's page (docs/playground.md) in headless Chromium, served from target/web/ by
// a small static server started here (no network): wolf.ds gives the published answer, eight.ds
// runs with its arguments in the address, a Search.astar shows its statistics, Stop ends a
// loop at once and the page goes on, a permalink round-trips, an error marks its line, an SVG
// printed shows as a picture, a DOT graph and `out G` are drawn, a written file can be
// downloaded, a permalink carries the limits, and Explore shows the explorer's page (wolf.ds
// walked to the goal, eight.ds's view and A* replay, Stop ending a runaway request). Every
// expected answer comes from the repository's checked files (README.md, tests/expected/,
// docs/search.md).
//
//   cargo xtask web && cd tests/browser && npm ci && npm run test:playground
//
// WEB (default ../../target/web) and CHROMIUM (default /usr/bin/chromium) say where things are.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, serveFolder } from './chromium.mjs';

const root = new URL('../../', import.meta.url).pathname;
const web = process.env.WEB || join(root, 'target/web');
const expected = (name) => readFileSync(join(root, 'tests/expected', name), 'utf8');

let server, base, page, browser;
const problems = [];

before(async () => {
  ({ server, base } = await serveFolder(web));
  browser = await openBrowser('playground', problems);
  page = browser.page;
  page.on('request', (r) => { if (!r.url().startsWith(base) && !/^(blob|data):/.test(r.url())) problems.push(`left the page's server: ${r.url()}`); });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Opens the page at `fragment` (a fresh load) and waits until the engine is ready. */
async function open(fragment = '') {
  // What the last page still loads (the graph library a drawing asked for) ends first: leaving
  // would abort it, a failed request.
  await page.waitForLoadState('networkidle');
  await page.goto('about:blank');
  await page.goto(base + fragment);
  await page.waitForSelector('body:not([data-run=loading])', { timeout: 30000 });
}

/** Waits for the run in progress to end; its state (finished, runtime_error, ...). */
async function ended(timeout = 60000) {
  await page.waitForSelector('body:not([data-run=running]):not([data-run=loading]):not([data-run=idle])', { timeout });
  return page.getAttribute('body', 'data-run');
}

const output = () => page.textContent('#output');
const setCode = (code) => page.evaluate((c) => { window.dsPlayground.editor.code = c; }, code);

test('wolf.ds gives the published 17-action answer', async () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const answer = readme.split('\n').find((l) => l.startsWith('Start;f.t.g;'));
  assert.equal(answer.split(';').length, 18, 'the README shows 17 actions after Start');
  const loaded = Date.now();
  await open('#example=wolf&run');
  await page.waitForFunction((a) => document.getElementById('output').textContent.includes(a), answer, { timeout: 30000 });
  const seconds = (Date.now() - loaded) / 1000;
  assert.equal(await ended(), 'finished');
  assert.equal(await output(), expected('wolf.out'));
  assert.equal(await page.inputValue('#example'), 'wolf');
  // the world drawn: GRAPH is Start at the end (as `out GRAPH` prints it): f, w, g, c on $1,
  // the banks linked both ways, the wolf wants the goat and the goat the cabbage (isa left out)
  await page.waitForSelector('#world-box .graph-box[data-nodes]');
  assert.match(await page.textContent('#world-box figcaption'), /GRAPH is Start$/);
  assert.deepEqual(await page.evaluate(() => {
    const box = document.querySelector('#world-box .graph-box');
    return [box.dataset.nodes, box.dataset.edges];
  }), ['6', '8']);
  console.log(`# wolf.ds: the answer shown ${seconds.toFixed(2)} s after the page was asked for`);
  assert.ok(seconds < 5, `the answer came after ${seconds} s`);
});

test('eight.ds runs with the arguments given in the address (Search.astar, its statistics)', async () => {
  const args = expected('eight@library_hardest.args').split('\n').filter((l) => l && !l.startsWith('#'));
  await open(`#example=eight&args=${args.map(encodeURIComponent).join(',')}&run`);
  assert.equal(await ended(), 'finished');
  const got = await output();
  assert.equal(got, expected('eight@library_hardest.out'));
  assert.match(got, /answer: 31/);
  assert.match(got, /expanded: \d+/);
  assert.equal(await page.inputValue('#args'), args.join(' '));
});

test('a Search.astar typed in the editor shows its statistics', async () => {
  const doc = readFileSync(join(root, 'docs/search.md'), 'utf8');
  const at = doc.indexOf('// Roads between towns with their lengths');
  const code = doc.slice(at, doc.indexOf('```', at));
  const outStart = doc.indexOf('```output\n', at) + '```output\n'.length;
  const want = doc.slice(outStart, doc.indexOf('```', outStart));
  assert.match(want, /^astar \[A,C,B,D,E,F\] 12 5$/m);
  await open('#example=roads');
  await setCode(code);
  await page.click('#run');
  assert.equal(await ended(), 'finished');
  assert.equal(await output(), want);
});

test('Stop ends `while True {}` within a second, and the page stays usable', async () => {
  await open();
  await setCode('out "looping"\nwhile True {}\n');
  await page.click('#run');
  await page.waitForFunction(() => document.getElementById('output').textContent.includes('looping'));
  await page.waitForTimeout(300);
  assert.equal(await page.getAttribute('body', 'data-run'), 'running');
  const clicked = Date.now();
  await page.click('#stop');
  await page.waitForSelector('body[data-run=stopped]', { timeout: 1000 });
  const ms = Date.now() - clicked;
  assert.ok(ms < 1000, `stopped after ${ms} ms`);
  assert.match(await output(), /looping\n[\s\S]*stopped after/);
  await setCode('out 6 * 7\n');
  await page.click('#run');
  assert.equal(await ended(), 'finished');
  assert.equal(await output(), '42\n');
});

test('a permalink round-trips and runs nothing until Run, unless it says run', async () => {
  const code = 'def greet(Who) : return "hello " + Who\nout greet(System.args()[0]), "ü ✓"  // & # = , %\n';
  await open();
  await setCode(code);
  await page.fill('#args', 'a,b "c d"');
  await page.click('#share');
  const link = await page.inputValue('#share-link');
  assert.ok(link.startsWith(base + '#code='), link);
  await open(link.slice(base.length));
  assert.equal(await page.evaluate(() => window.dsPlayground.editor.code), code);
  assert.equal(await page.inputValue('#args'), 'a,b "c d"');
  assert.equal(await page.getAttribute('body', 'data-run'), 'idle');
  assert.equal(await output(), '');
  await open(link.slice(base.length) + '&run');
  assert.equal(await ended(), 'finished');
  assert.equal(await output(), 'hello a,b ü ✓\n');
});

test('a damaged link says so and runs nothing', async () => {
  await open('#code=%%%&run');
  assert.match(await output(), /damaged|URL-encoded/);
  assert.notEqual(await page.getAttribute('body', 'data-run'), 'running');
});

test('an error marks the right line', async () => {
  await open();
  await setCode('var X = 1\nout X\nout Y + 1\nout 3\n');
  await page.click('#run');
  assert.equal(await ended(), 'compile_error');
  assert.deepEqual(await page.evaluate(() => window.dsPlayground.editor.markedLines()), [3]);
  assert.equal(await page.textContent('.cm-line.ds-error-line'), 'out Y + 1');
  assert.match(await output(), /scripts\/\w+\.ds:3:5/);
  // a runtime error inside a demon: the line of the failing expression
  await setCode('def half(N) {\n  var Z = 0\n  return N / Z\n}\nout "before"\nout half(4)\n');
  await page.click('#run');
  assert.equal(await ended(), 'runtime_error');
  assert.deepEqual(await page.evaluate(() => window.dsPlayground.editor.markedLines()), [3]);
  assert.match(await output(), /^before\n/);
});

test('an SVG the script prints is shown as a picture', async () => {
  const args = expected('eight@svg.args').split('\n').filter((l) => l && !l.startsWith('#'));
  await open(`#example=eight&args=${args.map(encodeURIComponent).join(',')}&run`);
  assert.equal(await ended(), 'finished');
  assert.equal(await output(), expected('eight@svg.out'), 'the picture keeps its text');
  const size = await page.evaluate(async () => {
    const img = document.querySelector('#output figure.picture img');
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  });
  assert.ok(size[0] > 100 && size[1] > 100, `the picture is drawn (${size})`);
});

test('a graph printed as DOT is drawn with the explorer\'s graph library', async () => {
  await open();
  const code = 'edges on, want\nnodes a, b, $c\na on b = True\na want b = False\nout GRAPH.dot()\nout "after"\n';
  await setCode(code);
  await page.click('#run');
  assert.equal(await ended(), 'finished');
  const want = 'digraph {\n    0 [ label = "a"]\n    1 [ label = "b"]\n    2 [ label = "c"]\n' +
    '    0 -> 1 [ label = "on"]\n    0 -> 1 [ label = "!want", color = red]\n}\nNone\nafter\n';
  assert.equal(await output(), want, 'the DOT text is kept under the drawing');
  await page.waitForSelector('#output figure.graph-picture .graph-box[data-nodes]');
  const drawn = await page.evaluate(() => {
    const box = document.querySelector('#output .graph-box');
    return [box.dataset.nodes, box.dataset.edges, box.querySelectorAll('canvas').length > 0];
  });
  assert.deepEqual(drawn, ['3', '2', true]);
});

test('a file the script wrote can be downloaded', async () => {
  await open();
  await setCode('var F = File.open("notes/plan.txt", "w")\nF.out("first", 1)\nF.out("second")\nF.close()\nout "written"\n');
  await page.click('#run');
  assert.equal(await ended(), 'finished');
  const link = page.locator('#files a');
  assert.equal(await link.count(), 1);
  assert.equal(await link.getAttribute('download'), 'plan.txt');
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const text = readFileSync(await download.path(), 'utf8');
  assert.equal(text, 'first 1\nsecond\n');
});

test('#include and data files come from scripts/ (roads.ds with a map named in its arguments)', async () => {
  const args = expected('roads@tunnel.args').split('\n').filter((l) => l && !l.startsWith('#'));
  await open(`#example=roads&args=${args.map(encodeURIComponent).join(',')}&run`);
  assert.equal(await ended(), 'finished');
  assert.equal(await output(), expected('roads@tunnel.out'));
  await open('#example=wolf_two_farmers&run');
  assert.equal(await ended(), 'finished');
  assert.equal(await output(), expected('wolf_two_farmers.out'));
});

/** The explorer's frame once Explore has shown it, ready at state 0. */
async function explorerFrame() {
  await page.waitForSelector('body[data-view=explore]', { timeout: 60000 });
  const frame = await (await page.waitForSelector('#explorer-frame')).contentFrame();
  await shownIn(frame, 0);
  return frame;
}

/** Waits until the explorer shows state `id` (and is not busy). */
async function shownIn(frame, id) {
  await frame.waitForSelector(`body[data-state="${id}"]:not(.busy)`, { timeout: 30000 });
}

/** Opens the Explore panel and explores with the fields as they are. */
async function exploreNow() {
  if (await page.isHidden('#explore-box')) await page.click('#explore');
  await page.click('#explore-go');
}

test('Explore wolf.ds in the page: the explorer\'s page steps to the goal along the published 17 actions', async () => {
  // The published answer (shared problems, problem 1), as the golden output's last line has it.
  const solution = expected('wolf.out').trim().split('\n').pop().split(';').slice(1);
  assert.equal(solution.join(';'), 'f.t.g;f.m.$2;f.p;f.m.$1;f.t.w;f.m.$2;f.p;f.t.g;f.m.$1;f.p;f.t.c;f.m.$2;f.p;f.m.$1;f.t.g;f.m.$2;f.p');
  await open('#example=wolf');
  await page.click('#explore');
  // prefilled from the docs' `ds explore scripts/wolf.ds ...`
  assert.deepEqual(await Promise.all(['start', 'next', 'goal', 'h', 'view'].map((f) => page.inputValue('#explore-' + f))),
    ['Start', 'all_actions', 'target_state', '', '']);
  await exploreNow();
  const frame = await explorerFrame();
  assert.equal(await page.getAttribute('body', 'data-run'), 'exploring');
  assert.match(await frame.textContent('#file'), /scripts\/wolf\.ds/);
  for (const action of solution) {
    const button = frame.locator(`#actions button[data-action="${action}"]`);
    const next = Number(await button.getAttribute('data-id'));
    await button.click();
    await shownIn(frame, next);
  }
  assert.equal(await frame.isVisible('#goal-badge'), true, 'the goal is marked');
  assert.equal(await frame.getAttribute('body', 'data-goal'), 'true');
  assert.equal(await frame.locator('#path li').count(), 18, 'the start and 17 actions');
  // the goal's world: everyone on the second bank
  const on = await frame.evaluate(() => window.dsExplorer.world.edges()
    .filter((e) => e.data('rel') === 'on' && e.data('value') === 'True').map((e) => `${e.source().data('label')}>${e.target().data('label')}`).sort());
  assert.deepEqual(on, ['c>$2', 'f>$2', 'g>$2', 'w>$2']);
  // back to the program, and the explorer again
  await page.click('#explorer-close');
  assert.equal(await page.isVisible('#editor'), true);
  await page.click('#explorer-show');
  assert.equal(await frame.isVisible('#goal-badge'), true);
});

test('Explore eight.ds with arguments: a state\'s view, and the A* replay finds the known optimal length', async () => {
  // A random start with Manhattan distance: 26 moves (tests/expected, checked by tests/oracle/puzzles.py).
  const args = expected('eight@random_manhattan.args').split('\n').filter((l) => l && !l.startsWith('#'));
  const optimal = Number(/answer: (\d+)/.exec(expected('eight@random_manhattan.out'))[1]);
  assert.equal(optimal, 26);
  await open(`#example=eight&args=${args.map(encodeURIComponent).join(',')}`);
  await exploreNow();
  const frame = await explorerFrame();
  // the view: the start's board as a picture (8 2 0 / 6 5 7 / 3 1 4)
  const src = await frame.getAttribute('#view img', 'src');
  const svg = decodeURIComponent(src.slice(src.indexOf(',') + 1));
  const tiles = [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*>(\d)<\/text>/g)]
    .sort((a, b) => (a[2] - b[2]) || (a[1] - b[1])).map((m) => m[3]).join('');
  assert.equal(tiles, args[0].replace('0', ''));
  await frame.click('#tab-replay');
  await frame.selectOption('#algorithm', 'astar');
  await frame.click('#run');
  await frame.waitForSelector('#replay-controls:not([hidden])', { timeout: 60000 });
  await frame.click('#replay-last');
  assert.match(await frame.textContent('#replay-info'), new RegExp(`found goal #\\d+, cost ${optimal}\\b`));
  const replay = await frame.evaluate(() => window.dsExplorer.ui.replay);
  assert.equal(replay.path.length, optimal + 1, 'the start and 26 moves');
  assert.equal(replay.cost, optimal);
});

test('Stop ends a runaway explorer request, and the page goes on', async () => {
  await open();
  // the start's successor is state 1, whose successors never come
  await setCode('var Start = 0\ndef next(S) {\n  if S > 0 {\n    while True {}\n  }\n  return [["on", 1]]\n}\ndef goal(S) : return False\n');
  await page.click('#explore');
  for (const [f, v] of [['start', 'Start'], ['next', 'next'], ['goal', 'goal']]) await page.fill('#explore-' + f, v);
  await exploreNow();
  const frame = await explorerFrame();
  await frame.click('#actions button[data-action="on"]');
  await page.waitForSelector('body[data-asking=true]', { timeout: 30000 });
  await page.waitForTimeout(300);
  const clicked = Date.now();
  await page.click('#stop');
  await page.waitForSelector('body[data-run=stopped]', { timeout: 1000 });
  assert.ok(Date.now() - clicked < 1000);
  await frame.waitForSelector('#error:not([hidden])');
  assert.match(await frame.textContent('#error'), /stopped|ended/);
  await page.click('#explorer-close');
  await setCode('out 6 * 7\n');
  await page.click('#run');
  assert.equal(await ended(), 'finished');
  assert.equal(await output(), '42\n');
});

test('Explore with a symmetry: states with the same representative are one', async () => {
  // A walk on -3..3 from 0, no goal (so BFS meets every state); canon folds S and -S into |S|.
  // Without it, up and down from 0 lead to two states (1 and -1) and BFS meets 7; with it, to
  // one, and the space is 0..3: 4 states.
  await open();
  await setCode('var Start = 0\ndef next(S) {\n  var R = []\n  if S < 3 : R.push(["up", S + 1])\n' +
    '  if S > -3 : R.push(["down", S - 1])\n  return R\n}\ndef goal(S) : return False\n' +
    'def canon(S) : return Math.abs(S)\n');
  await page.click('#explore');
  const fields = [['start', 'Start'], ['next', 'next'], ['goal', 'goal'], ['h', ''], ['view', ''], ['symmetry', '']];
  const explored = async (symmetry) => {
    for (const [f, v] of fields) await page.fill('#explore-' + f, f === 'symmetry' ? symmetry : v);
    await exploreNow();
    const frame = await explorerFrame();
    const targets = await frame.$$eval('#actions button', (bs) => bs.map((b) => b.dataset.id));
    await frame.click('#tab-replay');
    await frame.selectOption('#algorithm', 'bfs');
    await frame.click('#run');
    await frame.waitForSelector('#replay-controls:not([hidden])', { timeout: 60000 });
    const states = await frame.evaluate(() => window.dsExplorer.ui.replay.states.length);
    await page.click('#explorer-close');
    return { targets: new Set(targets).size, states };
  };
  assert.deepEqual(await explored(''), { targets: 2, states: 7 });
  assert.deepEqual(await explored('canon'), { targets: 1, states: 4 });
});

test('`out G` of a graph draws it in the output, its text folded under it', async () => {
  await open();
  await setCode('nodes a, b\nedges on\na on b = True\nout "before"\nout GRAPH\nout "after"\n');
  await page.click('#run');
  assert.equal(await ended(), 'finished');
  await page.waitForSelector('#output figure.shown .graph-box[data-nodes]');
  assert.deepEqual(await page.evaluate(() => {
    const box = document.querySelector('#output figure.shown .graph-box');
    return [box.dataset.nodes, box.dataset.edges];
  }), ['2', '1']);
  const text = await output();
  assert.ok(text.startsWith('before\nGRAPH {') && text.endsWith('}\n\nafter\n'), JSON.stringify(text));
});

test('a permalink carries the limits, and opening it restores them', async () => {
  await open();
  await setCode('var I = 0\nwhile True { I = I + 1 }\n');
  await page.click('summary');
  await page.fill('#limit-time', '7');
  await page.fill('#limit-steps', '5000');
  await page.fill('#limit-memory', '256');
  await page.click('#share');
  const link = await page.inputValue('#share-link');
  assert.match(link, /&time=7&steps=5000&memory=256$/);
  await open();
  assert.deepEqual(await Promise.all(['#limit-time', '#limit-steps', '#limit-memory'].map((f) => page.inputValue(f))), ['60', '', '1024']);
  await open(link.slice(base.length) + '&run');
  assert.deepEqual(await Promise.all(['#limit-time', '#limit-steps', '#limit-memory'].map((f) => page.inputValue(f))), ['7', '5000', '256']);
  assert.equal(await ended(), 'runtime_error', 'the step limit ends the loop');
  assert.match(await output(), /step/);
});

test('a permalink carries the Explore fields, and with explore it explores at once', async () => {
  await open('#example=wolf');
  await page.click('#explore');
  await page.fill('#explore-symmetry', 'canon');
  await page.click('#share');
  const link = await page.inputValue('#share-link');
  assert.match(link, /&start=Start&next=all_actions&goal=target_state&symmetry=canon(&|$)/);
  // A link with fields of its own: the panel shows them, not the example's (wolf_search's
  // docs give it --view view), and `explore` explores at once.
  await open('#example=wolf_search&start=Start&next=all_actions&goal=target_state&explore');
  const frame = await explorerFrame();
  assert.match(await frame.textContent('#file'), /wolf_search/);
  assert.deepEqual(await Promise.all(['start', 'next', 'goal', 'h', 'view', 'symmetry'].map((f) => page.inputValue('#explore-' + f))),
    ['Start', 'all_actions', 'target_state', '', '', '']);
});

test('a search that runs over a second shows its live line, gone when it ends', async () => {
  // Triples mod 60 by a + 1, b + 7, c + a: every one of the 216,000 is reachable.
  await open();
  await setCode('def next(s) : return [["a", [(s[0] + 1) % 60, s[1], s[2]]], ["b", [s[0], (s[1] + 7) % 60, s[2]]], '
    + '["c", [s[0], s[1], (s[2] + s[0]) % 60]]]\nSearch.bfs([0, 0, 0], next, [-1])\nout Search.stats()["states"]\n');
  await page.click('#run');
  await page.waitForSelector('#search-line:not([hidden])', { timeout: 60000 });
  const line = await page.textContent('#search-line');
  assert.match(line, /^search: \d+ states, frontier \d+, depth \d+, \d+ states\/s, [\d.]+ bytes\/state/);
  assert.equal(await ended(120000), 'finished');
  assert.equal(await page.isHidden('#search-line'), true, 'the line goes with the search');
  assert.equal((await output()).trim(), '216000');
});

test('no errors, warnings or requests beyond the page', () => {
  assert.deepEqual(problems, []);
});
