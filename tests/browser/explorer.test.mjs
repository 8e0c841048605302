// ds explore's page in headless Chromium: open it for wolf.ds, click through the goat-first
// solution, check that the goal is marked and that the world graph shows each state's `on`
// edges, try the keyboard, a replay and a phone-width window, and keep a screenshot; then open
// it for eight.ds with `--view view` and check that each state is shown as its board.
//
//   cd tests/browser && npm ci && npm test        (after cargo build --profile release-dev)
//
// DS (default ../../target/release-dev/ds), CHROMIUM (default /usr/bin/chromium) and
// SCREENSHOT (default ../../target/explorer.png; the 8-puzzle's beside it, explorer-eight.png)
// say where things are.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser } from './chromium.mjs';
import { startExplore } from './explore-server.mjs';

const root = new URL('../../', import.meta.url).pathname;
const ds = process.env.DS || join(root, 'target/release-dev/ds');
const screenshot = process.env.SCREENSHOT || join(root, 'target/explorer.png');

let server, base, page, browser;
const problems = [];

/** Starts `ds explore` with `args` (after `explore`) and resolves to the process and its address. */
function explore(args) {
  return startExplore(ds, root, args);
}

/** Ends a `ds explore` started for one test: the page first waits for its requests and leaves,
 * so that none of them reaches the stopped server and fails in a later test. */
async function stop(child) {
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.goto('about:blank');
  child.kill();
}

/** Starts `ds explore` on wolf.ds and resolves to its address. */
async function serve() {
  const started = await explore(['scripts/wolf.ds', '--start', 'Start', '--next', 'all_actions', '--goal', 'target_state']);
  server = started.child;
  return started.base;
}

before(async () => {
  base = await serve();
  browser = await openBrowser('explorer', problems);
  page = browser.page;
});

after(async () => {
  await browser?.close();
  server?.kill();
});

/** The state the API gives for `id`. */
async function apiState(id) {
  const r = await fetch(`${base}api/state/${id}`);
  assert.equal(r.status, 200);
  return r.json();
}

/** Waits until the page shows state `id` (and is not busy). */
async function shown(id) {
  await page.waitForSelector(`body[data-state="${id}"]:not(.busy)`, { timeout: 20000 });
}

/** The True `on` edges drawn in the world graph, as "x>y", sorted. */
function drawnOn() {
  return page.evaluate(() => window.dsExplorer.world.edges()
    .filter((e) => e.data('rel') === 'on' && e.data('value') === 'True' && e.visible())
    .map((e) => `${e.source().data('label')}>${e.target().data('label')}`).sort());
}

function factsOn(state) {
  return state.facts.filter((f) => f[1] === 'on' && f[3] === 'True').map((f) => `${f[0]}>${f[2]}`).sort();
}

/** The published solution, goat first: the last line of tests/expected/wolf.out. */
const solution = readFileSync(join(root, 'tests/expected/wolf.out'), 'utf8').trim().split('\n').pop().split(';').slice(1);

test('click from the start to the goal along the goat-first solution', async () => {
  assert.equal(solution.length, 17);
  assert.equal(solution[0], 'f.t.g', 'the farmer takes the goat first');
  await page.goto(base);
  await shown(0);
  assert.equal(await page.isVisible('#goal-badge'), false);
  assert.deepEqual(await drawnOn(), ['c>$1', 'f>$1', 'g>$1', 'w>$1'], 'everyone starts on the first bank');
  let id = 0;
  for (const action of solution) {
    const button = page.locator(`#actions button[data-action="${action}"]`);
    const next = Number(await button.getAttribute('data-id'));
    await button.click();
    await shown(next);
    id = next;
    const state = await apiState(id);
    assert.deepEqual(await drawnOn(), factsOn(state), `the world of state ${id} (${action}) shows its on edges`);
    assert.equal(await page.textContent('#state-name'), state.name);
  }
  assert.equal(await page.isVisible('#goal-badge'), true, 'the goal is marked');
  assert.equal(await page.getAttribute('body', 'data-goal'), 'true');
  assert.deepEqual(await drawnOn(), ['c>$2', 'f>$2', 'g>$2', 'w>$2'], 'everyone ends on the second bank');
  const marked = await page.evaluate((n) => window.dsExplorer.space.getElementById('s' + n).hasClass('goal'), id);
  assert.equal(marked, true, 'the goal is marked in the state graph');
  assert.equal(await page.locator('#path li').count(), 18, 'the path lists the start and 17 actions');
  await page.screenshot({ path: screenshot });
});

test('the keyboard: back, forward, an action by its number', async () => {
  const goal = Number(await page.getAttribute('body', 'data-state'));
  const path = await (await fetch(`${base}api/path/${goal}`)).json();
  await page.keyboard.press('ArrowLeft');
  await shown(path[path.length - 2].id);
  await page.keyboard.press('ArrowRight');
  await shown(goal);
  await page.keyboard.press('Home');
  await shown(0);
  const start = await apiState(0);
  await page.keyboard.press('2');
  await shown(start.successors[1].id);
  assert.equal(start.successors[1].action, 'f.t.g');
});

test('a breadth-first replay ends at the goal', async () => {
  await page.keyboard.press('r');
  await page.selectOption('#algorithm', 'bfs');
  await page.click('#run');
  await page.waitForSelector('#replay-controls:not([hidden])');
  await page.click('#replay-last');
  const info = await page.textContent('#replay-info');
  assert.match(info, /bfs, step 27 of 27/);
  assert.match(info, /found goal #\d+, cost 17/);
  const goals = await page.evaluate(() => window.dsExplorer.space.nodes('.goal').length);
  assert.equal(goals, 1);
  await page.keyboard.press('r');
});

test('readable at 1280x800 and at phone width', async () => {
  const boxes = await Promise.all(['#panel', '#space-pane', '#world-pane'].map((s) => page.locator(s).boundingBox()));
  for (const b of boxes) assert.ok(b.x >= 0 && b.x + b.width <= 1280 && b.y + b.height <= 800, JSON.stringify(b));
  assert.ok(boxes[0].x + boxes[0].width <= boxes[1].x && boxes[1].x + boxes[1].width <= boxes[2].x, 'three columns');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `nothing wider than the window (${width})`);
  const phone = await Promise.all(['#panel', '#space-pane', '#world-pane'].map((s) => page.locator(s).boundingBox()));
  assert.ok(phone[0].y + phone[0].height <= phone[1].y && phone[1].y + phone[1].height <= phone[2].y, 'one column');
  assert.deepEqual(problems, [], 'no errors or warnings on the page');
});

/** The board an 8-puzzle view draws (scripts/eight/board.ds: 40-pixel cells, a tile's number
 * as a text inside its cell), read from the picture's data address: 9 digits, 0 the blank. */
function boardOf(src) {
  const prefix = 'data:image/svg+xml;charset=utf-8,';
  assert.ok(src.startsWith(prefix), `the view is an SVG image (${src.slice(0, 40)})`);
  const svg = decodeURIComponent(src.slice(prefix.length));
  const cells = Array(9).fill('0');
  for (const [, x, y, tile] of svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)<\/text>/g)) {
    cells[3 * Math.floor(Number(y) / 40) + Math.floor(Number(x) / 40)] = tile;
  }
  return cells.join('');
}

test('eight.ds with --view: the start board as a picture, and a successor\'s board after a click', async () => {
  const eight = await explore(['scripts/eight.ds', '--start', 'Start', '--next', 'moves', '--goal', 'is_goal',
    '--h', 'h', '--view', 'view']);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(eight.base);
    await shown(0);
    const img = page.locator('#view img');
    assert.equal(await img.isVisible(), true, 'the view is shown in the state panel');
    // 283164705 (eight.ds's start): 2 8 3 / 1 6 4 / 7 _ 5
    assert.equal(boardOf(await img.getAttribute('src')), '283164705');
    // The blank moves up: 2 8 3 / 1 _ 4 / 7 6 5
    const up = page.locator('#actions button[data-action="up"]');
    const next = Number(await up.getAttribute('data-id'));
    await up.click();
    await shown(next);
    assert.equal(boardOf(await page.locator('#view img').getAttribute('src')), '283104765');
    const pictured = await page.evaluate(() => window.dsExplorer.space.nodes('.pictured').length);
    assert.ok(pictured >= 2, `the states shown are pictures in the state graph (${pictured})`);
    await page.screenshot({ path: screenshot.replace(/\.png$/, '-eight.png') });
    assert.deepEqual(problems, [], 'no errors or warnings on the page');
  } finally {
    await stop(eight.child);
  }
});

// ---------------------------------------------------------------- teaching: detour.ds
// tests/browser/detour.ds is a five-state graph; every expectation below is worked out by hand
// from its text (the comments show how), not read from the page.

/** Runs `fn` with `ds explore` serving detour.ds with `--h h` (or another heuristic), the page open. */
async function onDetour(h, fn) {
  const started = await explore(['tests/browser/detour.ds', '--start', 'Start', '--next', 'next', '--goal', 'goal',
    '--h', h, '--view', 'view']);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(started.base);
    await shown(0);
    await fn(started.base);
  } finally {
    await stop(started.child);
  }
}

/** Runs `first` (and `second` beside it) in the replay tab, at step 0. */
async function replay(first, second = '') {
  if (await page.getAttribute('#tab-replay', 'aria-selected') !== 'true') await page.click('#tab-replay');
  await page.selectOption('#algorithm', first);
  await page.selectOption('#algorithm-2', second);
  await page.click('#run');
  await page.waitForSelector('#replay-controls:not([hidden])');
  await page.waitForSelector('body:not(.busy)');
  await page.click('#replay-first');
}

/** The states of column `col`'s open or closed table, by name, top to bottom. */
function rows(col, kind) {
  return page.$$eval(`#lists-${col} table.${kind} tbody tr[data-name]`, (trs) => trs.map((tr) => tr.dataset.name));
}

/** The rows of a table as "name g f" (f only when the table has it). */
function rowNumbers(col, kind) {
  return page.$$eval(`#lists-${col} table.${kind} tbody tr[data-name]`,
    (trs) => trs.map((tr) => [tr.dataset.name, ...[...tr.cells].slice(2).filter((_, i, a) => a.length < 3 || i !== 1).map((c) => c.textContent)].join(' ')));
}

/** Steps column 0's replay from step 0, checking `[open, closed]` after each step (the open
 * table read by `open`: by name, or with its numbers). */
async function expectLists(expected, open = rows) {
  for (const [k, [o, c]] of expected.entries()) {
    if (k > 0) await page.click('#replay-next');
    assert.deepEqual(await open(0, 'open'), o, `open after ${k} steps`);
    assert.deepEqual(await rows(0, 'closed'), c, `closed after ${k} steps`);
  }
}

test('bfs on detour.ds: the open and closed lists after each step', async () => {
  await onDetour('h', async () => {
    await replay('bfs');
    // bfs takes states first in, first out and tests them when generated; S's successors
    // are A then B, A's are C then B (met again), B's is C (met again), C's is G (the goal).
    const expected = [
      [['S'], []],
      [['A', 'B'], ['S']],
      [['B', 'C'], ['S', 'A']],
      [['C'], ['S', 'A', 'B']],
      [['G'], ['S', 'A', 'B', 'C']],
    ];
    await expectLists(expected);
    assert.equal(await page.getAttribute('#lists-0 tr[data-name="B"]', 'class'), 'again', 'B was met again from A');
    assert.match(await page.textContent('#replay-info'), /bfs, step 4 of 4/);
    assert.equal(await page.getAttribute('#lists-0 table.open tr[data-name="G"]', 'class'), 'goal');
    // Each state in a table is drawn small by its view: "(" + s + ")".
    await page.waitForSelector('#lists-0 tr[data-name="C"] pre');
    assert.equal(await page.textContent('#lists-0 tr[data-name="C"] pre'), '(C)');
  });
});

test('astar on detour.ds: the open list in order of f, then h, with g and f', async () => {
  await onDetour('h', async () => {
    await replay('astar');
    // h: S 5, A 4, B 2, C 2, G 0. After S: A (g 1, f 5), B (g 4, f 6). After A: C (g 6, f 8)
    // and B again by a cheaper way (g 3, f 5), first. After B: C (g 4, f 6). After C: G
    // (g 6, f 6) waits in the open list, a step of its own; then A* takes it out and finds it
    // a goal: the open list is empty.
    const expected = [
      [['S 0 5'], []],
      [['A 1 5', 'B 4 6'], ['S']],
      [['B 3 5', 'C 6 8'], ['S', 'A']],
      [['C 4 6'], ['S', 'A', 'B']],
      [['G 6 6'], ['S', 'A', 'B', 'C']],
    ];
    await expectLists(expected, rowNumbers);
    assert.match(await page.textContent('#replay-info'), /astar, step 4 of 5: expanded #3 .*goal #4 waits in the open list/);
    assert.doesNotMatch(await page.textContent('#replay-info'), /found goal/);
    // The fifth and last step takes G out and finds it a goal.
    await page.click('#replay-next');
    assert.match(await page.textContent('#replay-info'), /astar, step 5 of 5: takes goal #4 out of the open list.*found goal #4, cost 6/);
    assert.deepEqual(await rows(0, 'open'), []);
    assert.deepEqual(await rows(0, 'closed'), ['S', 'A', 'B', 'C', 'G']);
    assert.equal(await page.getAttribute('#lists-0 table.closed tr[data-name="G"]', 'class'), 'goal');
  });
});

test('bfs and astar side by side on detour.ds: one step button moves both; the page says which has finished', async () => {
  await onDetour('h_reopen', async () => {
    await replay('bfs', 'astar');
    assert.equal(await page.isVisible('#col-1'), true, 'a second column shows the second search');
    assert.equal(await page.isVisible('#world-pane'), false, 'the world pane gives it its place');
    // bfs expands S, A, B, C (4 steps, as above: it tests a state when it meets it); astar
    // with h_reopen expands S, B, A, B again and C, then takes the goal out (6 steps, worked
    // out in the next test).
    for (let k = 1; k <= 6; k++) {
      await page.click('#replay-next');
      const [one, two] = await Promise.all(['#replay-info', '#replay-info-1'].map((s) => page.textContent(s)));
      assert.match(one, new RegExp(`^bfs, step ${Math.min(k, 4)} of 4`), `bfs at step ${k}`);
      assert.match(two, new RegExp(`^astar, step ${k} of 6`), `astar at step ${k}`);
      assert.equal(/finished/.test(one), k >= 4, `bfs finished only from step 4 (${k}: ${one})`);
      assert.equal(/finished/.test(two), k === 6, `astar finished only at step 6 (${k}: ${two})`);
    }
    assert.deepEqual(await rows(0, 'closed'), ['S', 'A', 'B', 'C']);
    assert.deepEqual(await rows(1, 'closed'), ['S', 'A', 'B', 'C', 'G']);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `two replays with their tables fit a phone-width window (${width})`);
    const [one, two] = await Promise.all(['#col-0', '#col-1'].map((c) => page.locator(c).boundingBox()));
    assert.ok(one.y + one.height <= two.y, 'one above the other');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.click('#tab-explore');
    // detour's states are strings, not graphs: no world pane, the state space takes its room.
    assert.equal(await page.isVisible('#world-pane'), false, 'no world pane for states that are not graphs');
  });
});

test('a state that is not a graph collapses the world pane; a graph state shows it', async () => {
  await onDetour('h', async () => {
    assert.equal(await page.isVisible('#world-pane'), false);
    const [main, space] = await Promise.all(['main', '#space-pane'].map((s) => page.locator(s).boundingBox()));
    assert.ok(space.width > main.width / 2, `the state space takes the world's room (${space.width} of ${main.width})`);
  });
  await page.goto(base);
  await shown(0);
  assert.equal(await page.isVisible('#world-pane'), true, 'wolf.ds\'s states are graphs');
});

test('the state graph places the successors in the order of the actions list', async () => {
  // detour's S has actions a (to A) then b (to B); A has c (to C) then b (to B).
  await onDetour('h', async () => {
    for (const id of [0, 1]) {
      if (id) { await page.click('#actions button[data-action="a"]'); await shown(1); }
      const order = await page.evaluate((n) => {
        const s = window.dsExplorer.ui.cache.get(n);
        return s.successors.map((t) => window.dsExplorer.space.getElementById('s' + t.id).position('x'));
      }, id);
      assert.equal(order.length, 2);
      assert.ok(order[0] < order[1], `state ${id}: the first action's state is left of the second's (${order})`);
    }
  });
});

test('the title is not cut', async () => {
  await onDetour('h', async () => {
    const h1 = await page.evaluate(() => {
      const h = document.querySelector('h1');
      return { text: h.textContent, scroll: h.scrollWidth, client: h.clientWidth };
    });
    assert.match(h1.text, /tests\/browser\/detour\.ds \u2014 Start, next, .*, h$/);
    assert.ok(h1.scroll <= h1.client, `the whole title shows (${h1.scroll} > ${h1.client})`);
  });
});

test('astar with an inconsistent heuristic on detour.ds: duplicates and reopened states marked', async () => {
  await onDetour('h_reopen', async () => {
    await replay('astar');
    // h_reopen: S 2, A 5, B 0, C 2, G 0. After S: B (g 4, f 4) before A (g 1, f 6). After B:
    // C (g 5, f 7). After A: C by A costs 6, no better (met again); B by A costs 3 < 4 and B
    // was expanded: reopened (f 3), first.
    for (let k = 0; k < 3; k++) await page.click('#replay-next');
    assert.deepEqual(await rowNumbers(0, 'open'), ['B 3 3', 'C 5 7']);
    assert.deepEqual(await rows(0, 'closed'), ['S', 'A']);
    assert.equal(await page.getAttribute('#lists-0 table.open tr[data-name="B"]', 'class'), 'reopened');
    assert.equal(await page.getAttribute('#lists-0 table.open tr[data-name="C"]', 'class'), 'again');
    const tree = await page.evaluate(() => {
      const cy = window.dsExplorer.space;
      const named = (id) => cy.nodes().filter((n) => n.data('state') === id)[0];
      return { reopened: cy.nodes('.reopened').map((n) => n.data('state')), again: cy.nodes('.again').map((n) => n.data('state')),
        againEdges: cy.edges('.again').map((e) => `${e.source().data('state')}>${e.target().data('state')}`),
        parentOfB: named(2).incomers('edge').filter((e) => !e.hasClass('again')).sources().map((n) => n.data('state')) };
    });
    // Explorer ids (breadth-first from S): S 0, A 1, B 2, C 3, G 4.
    assert.deepEqual(tree.reopened, [2], 'B is marked reopened in the tree');
    assert.deepEqual(tree.again, [3], 'C is marked met again');
    assert.deepEqual(tree.againEdges, ['1>3'], 'a dotted edge from A to C');
    assert.deepEqual(tree.parentOfB, [1], 'B now hangs under A, the cheaper way');
    // After B again: C (g 4, f 6); after C the goal G waits; then it is found, at cost 6.
    await page.click('#replay-next');
    assert.deepEqual(await rowNumbers(0, 'open'), ['C 4 6']);
    await page.click('#replay-next');
    assert.deepEqual(await rowNumbers(0, 'open'), ['G 6 6']);
    await page.click('#replay-next');
    assert.match(await page.textContent('#replay-info'), /astar, step 6 of 6.*found goal #4, cost 6/);
  });
});

test('states coloured by h against the true distance: the inadmissible one stands out', async () => {
  await onDetour('h_over', async () => {
    // True costs to G: S 6, A 5, B 3, C 2, G 0; h_over: S 5, A 4, B 5, C 2, G 0. Only B (id 2)
    // is overestimated (by 2); h_over is neither admissible nor consistent.
    await page.selectOption('#colour-by', 'exact');
    await page.waitForSelector('#colour-legend:has-text("not admissible")');
    const legend = await page.textContent('#colour-legend');
    assert.match(legend, /not admissible, not consistent, worst #2 \(h over the true distance by 2\)/);
    const around = () => page.evaluate(() => window.dsExplorer.space.nodes().map((n) =>
      [n.data('state'), n.hasClass('inadmissible'), n.data('colour') !== undefined]));
    // At the start the states around are S, A and B.
    assert.deepEqual(await around(), [[0, false, true], [1, false, true], [2, true, true]]);
    await replay('astar');
    await page.click('#replay-last');
    const red = await page.evaluate(() => window.dsExplorer.space.nodes('.inadmissible').map((n) => n.data('state')));
    assert.deepEqual(red, [2], 'in the replay too');
    // And it misleads A*: after A, C (g 6, f 8, h 2) and B (g 3, f 8, h 5) tie on f; C goes
    // first (less h), then G (g 8, f 8, h 0) before B: a goal at cost 8, not the cheapest 6.
    assert.match(await page.textContent('#replay-info'), /found goal #4, cost 8/);
    // By h: the higher h, the darker (lightness falls): S and B (5) darker than C (2), G (0) palest.
    await page.selectOption('#colour-by', 'h');
    const light = await page.evaluate(() => Object.fromEntries(window.dsExplorer.space.nodes().map((n) =>
      [n.data('state'), Number(/(\d+)%\)$/.exec(n.data('colour'))[1])])));
    assert.ok(light[0] === light[2] && light[2] < light[3] && light[3] < light[4], JSON.stringify(light));
    assert.equal(await page.evaluate(() => window.dsExplorer.space.nodes('.inadmissible').length), 0);
  });
});

test('#state=N opens that state, and a new #state=N in the address shows it', async () => {
  await onDetour('h', async (detourBase) => {
    // Breadth-first from S: S 0, A 1, B 2, C 3 (from A), G 4.
    await page.goto(detourBase + '#state=3');
    await shown(3);
    assert.equal(await page.textContent('#state-name'), 'C');
    await page.evaluate(() => { location.hash = '#state=4'; });
    await shown(4);
    assert.equal(await page.textContent('#state-name'), 'G');
    assert.equal(await page.isVisible('#goal-badge'), true);
    await page.click('#actions button, #parent');
    assert.match(await page.evaluate(() => location.hash), /^#state=\d+$/, 'the address follows the state shown');
    assert.deepEqual(problems, [], 'no errors or warnings on the page');
  });
});

test('eight.ds: A* next to BFS, their open and closed lists drawn as boards', async () => {
  const eight = await explore(['scripts/eight.ds', '--start', 'Start', '--next', 'moves', '--goal', 'is_goal',
    '--h', 'h', '--view', 'view']);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(eight.base);
    await shown(0);
    await replay('astar', 'bfs');
    await page.click('#replay-next');
    // The start 283 164 7_5 (4 tiles misplaced) has three moves: up 283 1_4 765 (3 misplaced:
    // 2, 8, 1; f = 1 + 3 = 4), left 283 164 _75 and right 283 164 75_ (5 each: 2, 8, 1, 6 and
    // 7 or 5; f = 6). A* takes up first.
    const boards = (col, kind) => page.$$eval(`#lists-${col} table.${kind} tbody tr[data-name]`, (trs) => trs.map((tr) => tr.dataset.name));
    const open = await boards(0, 'open');
    assert.equal(open[0], '283104765');
    assert.deepEqual(open.slice(1).sort(), ['283164075', '283164750']);
    assert.deepEqual(await rowNumbers(0, 'open').then((r) => r.map((x) => x.split(' ').slice(1).join(' '))), ['1 4', '1 6', '1 6']);
    assert.deepEqual(await boards(1, 'open').then((b) => b.sort()), ['283104765', '283164075', '283164750'], 'BFS has met the same three');
    assert.deepEqual(await boards(0, 'closed'), ['283164705']);
    // Each row's state is its board, drawn by the view.
    await page.waitForSelector('#lists-0 table.open tr[data-name="283104765"] img');
    assert.equal(boardOf(await page.getAttribute('#lists-0 table.open tr[data-name="283104765"] img', 'src')), '283104765');
    // Boards readable from the back of a room (issue 55): at least 60 px, and twice that at 200%,
    // with the trees' text twice as large too.
    const boardHeight = () => page.$eval('#lists-0 table.open tr[data-name="283104765"] img', (img) => img.getBoundingClientRect().height);
    const treeFont = () => page.evaluate(() => parseFloat(window.dsExplorer.space.nodes()[0].style('font-size')));
    const [height, font] = [await boardHeight(), await treeFont()];
    assert.ok(height >= 60, `a board in the open list is ${height} px high`);
    await page.selectOption('#size', '2');
    assert.equal(await boardHeight(), 2 * height, 'the size control doubles the boards');
    assert.equal(await treeFont(), 2 * font, 'and the tree\'s text');
    await page.selectOption('#size', '1');
    for (let k = 0; k < 3; k++) await page.click('#replay-next');
    await page.waitForTimeout(300);
    await page.screenshot({ path: screenshot.replace(/\.png$/, '-compare.png') });
    assert.deepEqual(problems, [], 'no errors or warnings on the page');
  } finally {
    await stop(eight.child);
  }
});
