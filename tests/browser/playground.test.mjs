// The playground's page (docs/playground.md) in headless Chromium, served from target/web/ by
// a small static server started here (no network): wolf.ds gives the published answer, eight.ds
// runs with its arguments in the address, a Search.astar shows its statistics, Stop ends a
// loop at once and the page goes on, a permalink round-trips, an error marks its line, an SVG
// printed shows as a picture, a DOT graph is drawn and a written file can be downloaded. Every expected answer comes
// from the repository's checked files (README.md, tests/expected/, docs/search.md).
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

test('no errors, warnings or requests beyond the page', () => {
  assert.deepEqual(problems, []);
});
