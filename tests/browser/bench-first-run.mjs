// A page's first run against the runs after it (docs/performance.md, "A smaller, faster
// start"): for each program, a fresh load of the playground, then the same script run REPS
// times; each run's wall time (the click to the page's state saying it ended) and the
// engine's own measure. Headless Debian Chromium, the page of target/web/ (or WEB).
//
//   cargo xtask web && cd tests/browser && node bench-first-run.mjs [--reps N]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, serveFolder } from './chromium.mjs';

const root = new URL('../../', import.meta.url).pathname;
const web = process.env.WEB || join(root, 'target/web');
const i = process.argv.indexOf('--reps');
const reps = i > 0 ? Number(process.argv[i + 1]) : 4;
// [label, example to open, program put in the editor (none: the example's own)]
const PROGRAMS = [
  ['wolf (the example)', 'wolf', null],
  ['fib(30)', 'tour', 'bench/programs/fib.ds'],
  ['puzzle8 (8-puzzle BFS)', 'tour', 'bench/programs/puzzle8.ds'],
];
const { server, base } = await serveFolder(web);
const problems = [];
const browser = await openBrowser('first-run', problems);
const page = browser.page;
for (const [label, example, file] of PROGRAMS) {
  await page.goto('about:blank');
  const asked = Date.now();
  await page.goto(`${base}#example=${example}`);
  await page.waitForSelector('body[data-run=idle]', { timeout: 60000 });
  const ready = Date.now() - asked;
  if (file) {
    const code = readFileSync(join(root, file), 'utf8');
    await page.evaluate((c) => { window.dsPlayground.editor.code = c; document.getElementById('limit-time').value = ''; }, code);
  }
  const runs = [];
  for (let r = 0; r < reps; r++) {
    const clicked = Date.now();
    await page.click('#run');
    await page.waitForSelector('body:not([data-run=running]):not([data-run=idle])', { timeout: 600000 });
    const status = await page.textContent('#status');
    runs.push(`${Date.now() - clicked}/${/in (\d+) ms/.exec(status)?.[1] ?? status}`);
  }
  console.log(`${label}: ready ${ready} ms after the address; runs, wall/engine ms: ${runs.join(', ')}`);
}
await browser.close();
server.close();
if (problems.length) console.log(problems.join('\n'));
