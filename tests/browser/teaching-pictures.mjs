// Makes the pictures of docs/teaching.md that the browser tests do not keep, in headless
// Chromium, into docs/images/:
//   teaching-replay.png    A* alone on the 8-puzzle in the explorer's replay, its tree and its
//                          open and closed lists drawn as boards, after three expansions;
//   teaching-check.png     detour.ds with the overestimating h_over coloured by h against the
//                          true distance (as Search.check judges it), after A*'s whole replay;
//   teaching-notebook.png  the notebook's step-through of A* with each state's board
//                          (docs/notebooks/eight.ipynb), from an executed copy of the notebook.
// The explorer's other pictures (docs/explorer-eight.png, docs/explorer-compare.png) come from
// explorer.test.mjs (`npm run screenshot`). Not run in CI: it only draws, and checks nothing
// the tests do not.
//
//   cargo build --profile release-dev
//   python3 tests/kernel/run_notebooks.py --save target/notebooks   (for teaching-notebook.png)
//   cd tests/browser && npm ci && node teaching-pictures.mjs
//
// DS (default ../../target/release-dev/ds), CHROMIUM (default /usr/bin/chromium) and NOTEBOOK
// (default ../../target/notebooks/eight.ipynb; skipped with a note when missing) say where
// things are.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser } from './chromium.mjs';
import { startExplore } from './explore-server.mjs';

const root = new URL('../../', import.meta.url).pathname;
const ds = process.env.DS || join(root, 'target/release-dev/ds');
const notebook = process.env.NOTEBOOK || join(root, 'target/notebooks/eight.ipynb');
const images = join(root, 'docs/images');

/** Starts `ds explore` with `args` (after `explore`) and resolves to the process and its address. */
function explore(args) {
  return startExplore(ds, root, args);
}

/** Opens the explorer on `args`, runs `fn(page)` there, and ends the server. */
async function onExplorer(page, args, fn) {
  const { child, base } = await explore(args);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(base);
    await page.waitForSelector('body[data-state="0"]:not(.busy)', { timeout: 20000 });
    await fn();
    await page.waitForLoadState('networkidle').catch(() => {});
  } finally {
    await page.goto('about:blank');
    child.kill();
  }
}

/** Runs `algorithm` in the replay tab and goes to its step 0. */
async function replay(page, algorithm) {
  await page.click('#tab-replay');
  await page.selectOption('#algorithm', algorithm);
  await page.selectOption('#algorithm-2', '');
  await page.click('#run');
  await page.waitForSelector('#replay-controls:not([hidden])');
  await page.waitForSelector('body:not(.busy)');
  await page.click('#replay-first');
}

/** The HTML the kernel showed for the notebook's replay with boards (`Search.trace(board)`). */
function notebookReplay() {
  const nb = JSON.parse(readFileSync(notebook, 'utf8'));
  for (const cell of nb.cells) {
    for (const out of cell.outputs || []) {
      const html = [].concat(out.data?.['text/html'] || []).join('');
      if (html.includes('ds-replay') && html.includes('<svg')) return html;
    }
  }
  throw new Error(`${notebook} has no replay with views: was it executed?`);
}

const problems = [];
const browser = await openBrowser('teaching', problems);
const page = browser.page;
mkdirSync(images, { recursive: true });
try {
  const eight = ['scripts/eight.ds', '--start', 'Start', '--next', 'moves', '--goal', 'is_goal', '--h', 'h', '--view', 'view'];
  await onExplorer(page, eight, async () => {
    await replay(page, 'astar');
    for (let k = 0; k < 3; k++) await page.click('#replay-next');
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(images, 'teaching-replay.png') });
  });
  const detour = ['tests/browser/detour.ds', '--start', 'Start', '--next', 'next', '--goal', 'goal', '--h', 'h_over', '--view', 'view'];
  await onExplorer(page, detour, async () => {
    await page.selectOption('#colour-by', 'exact');
    await page.waitForSelector('#colour-legend:has-text("not admissible")');
    await replay(page, 'astar');
    await page.click('#replay-last');
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(images, 'teaching-check.png') });
  });
  if (existsSync(notebook)) {
    await page.setViewportSize({ width: 900, height: 600 });
    await page.setContent(`<body style="margin: 12px; background: white">${notebookReplay()}</body>`);
    // the fourth event: A* pushes state 2 (the blank moved right) from the start
    for (let k = 0; k < 3; k++) await page.click('.ds-replay button[data-step="1"]');
    await page.locator('.ds-replay').screenshot({ path: join(images, 'teaching-notebook.png') });
  } else {
    console.log(`${notebook} is missing: teaching-notebook.png not made (see the head of this file)`);
  }
  if (problems.length) console.log('the pages said:', problems);
} finally {
  await browser.close();
}
