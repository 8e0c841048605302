// The notebook's step-through of a search (docs/kernel.md; crates/kernel/src/replay.rs) in headless
// Chromium: the page the ds kernel showed for `Search.trace(board)` in docs/notebooks/eight.ipynb,
// stepped event by event, its state, open list and closed list compared with lists worked out by
// hand, and each state's board read back from its picture.
//
//   python3 tests/kernel/run_notebooks.py --save target/notebooks   (executes the notebook)
//   cd tests/browser && npm ci && npm run test:notebook
//
// NOTEBOOK (default ../../target/notebooks/eight.ipynb) and CHROMIUM say where things are.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser } from './chromium.mjs';

const root = new URL('../../', import.meta.url).pathname;
const notebook = process.env.NOTEBOOK || join(root, 'target/notebooks/eight.ipynb');

let browser, page;
const problems = [];

before(async () => {
  browser = await openBrowser('notebook', problems);
  page = browser.page;
});

after(async () => {
  await browser?.close();
});

/** The replays the kernel showed, in the notebook's order. */
function replays() {
  const nb = JSON.parse(readFileSync(notebook, 'utf8'));
  return nb.cells.flatMap((c) => c.outputs || []).map((o) => [].concat(o.data?.['text/html'] || []).join(''))
    .filter((html) => html.includes('ds-replay'));
}

/** The state shown, the open and closed lists by state number, and the board of the state's picture. */
function frame() {
  return page.evaluate(() => {
    const states = (place) => [...document.querySelectorAll(`${place} .ds-mini`)].map((d) => d.dataset.state);
    const cells = Array(9).fill('0');
    for (const t of document.querySelectorAll('.ds-replay-state svg text')) {
      cells[(t.getAttribute('y') - 26) / 40 * 3 + (t.getAttribute('x') - 16) / 40] = t.textContent;
    }
    return {
      state: document.querySelector('.ds-replay-state figcaption').textContent,
      open: states('.ds-replay-open'),
      closed: states('.ds-replay-closed'),
      board: cells.join(''),
    };
  });
}

test('A* from two moves away, stepped: the state, its board, the open and closed lists', async () => {
  // (The views are in the page's script, each `<` written `\u003c`.)
  const html = replays().find((h) => h.includes('\\u003csvg'));
  assert.ok(html, `${notebook} has a replay with boards`);
  await page.setContent(`<body>${html}</body>`);
  // Worked by hand (tests/kernel/run_notebooks.py says why): the start 013824765 (0) is expanded,
  // the blank moves down (1: g 1, h 3, f 4) and right (2: g 1, h 1, f 2), 2 is expanded, the goal
  // (3: f 2) pushed, the start met again, 130824765 (4: g 2, h 2, f 4) pushed, and the goal taken
  // out. The open list is in the order A* takes states out: the least f, then the least h (so 2
  // before 1, and 4 before 1), then the first in; the goal, taken out, joins the closed list.
  const expected = [
    ['state 0', [0], [], '013824765'],
    ['state 0', [], [0], '013824765'],
    ['state 1', [1], [0], '813024765'],
    ['state 2', [2, 1], [0], '103824765'],
    ['state 2', [1], [0, 2], '103824765'],
    ['state 3', [3, 1], [0, 2], '123804765'],
    ['state 0', [3, 1], [0, 2], '013824765'],
    ['state 4', [3, 4, 1], [0, 2], '130824765'],
    ['state 3', [4, 1], [0, 2, 3], '123804765'],
  ];
  for (const [k, [state, open, closed, board]] of expected.entries()) {
    if (k > 0) await page.click('.ds-replay button[data-step="1"]');
    assert.deepEqual(await frame(), { state, open: open.map(String), closed: closed.map(String), board }, `event ${k + 1}`);
  }
  assert.equal(await page.textContent('.ds-replay-at'), 'event 9 of 9, 2 expanded');
  assert.equal(await page.textContent('.ds-replay-open b'), 'open, in the order astar takes them out (2)');
  // boards readable on a projector (issue 55): at least 60 px wide in the lists
  const widths = await page.$$eval('.ds-replay-open .ds-mini svg', (svgs) => svgs.map((s) => s.getBoundingClientRect().width));
  assert.ok(widths.length > 0 && widths.every((w) => w >= 60), `the open list's boards: ${widths}`);
  assert.deepEqual(problems, [], 'no errors on the page');
});

test('a record without views steps through its lists alone', async () => {
  const html = replays().find((h) => !h.includes('<svg'));
  await page.setContent(`<body>${html}</body>`);
  assert.equal(await page.isVisible('.ds-replay-state'), false, 'no state picture without views');
  // BFS from 283164705: the start expanded, its three moves (up 1, left 2, right 3) put in.
  const numbers = (place) => page.$$eval(`${place} .ds-mini`, (ds) => ds.map((d) => d.textContent));
  for (let k = 0; k < 4; k++) await page.click('.ds-replay button[data-step="1"]');
  assert.deepEqual(await numbers('.ds-replay-open'), ['#1', '#2', '#3']);
  // Then 1 (the blank in the middle) expanded: up 203184765 (4), down the start again (a
  // duplicate), left 283014765 (5), right 283140765 (6), each behind the states put in before:
  // first in, first out.
  for (let k = 0; k < 5; k++) await page.click('.ds-replay button[data-step="1"]');
  assert.equal(await page.textContent('.ds-replay-at'), 'event 10 of ' + (await page.$eval('.ds-replay input', (i) => +i.max + 1)) + ', 2 expanded');
  assert.deepEqual(await numbers('.ds-replay-open'), ['#2', '#3', '#4', '#5', '#6']);
  assert.deepEqual(await numbers('.ds-replay-closed'), ['#0', '#1']);
  assert.equal(await page.textContent('.ds-replay-open b'), 'open, in the order bfs takes them out (5)');
  assert.deepEqual(problems, [], 'no errors on the page');
});
