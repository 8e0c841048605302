// Speed of the playground against the native interpreter, in one run (docs/performance.md,
// "The playground"): each program runs in the page (headless Chromium, the worker's own
// measure of the run) and as `ds FILE` (wall time, the process included), best of REPS.
//
//   cargo xtask web && cargo build --release
//   cd tests/browser && node bench-playground.mjs [--ds PATH] [--reps N]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveFolder } from './chromium.mjs';

const root = new URL('../../', import.meta.url).pathname;
const web = process.env.WEB || join(root, 'target/web');
const flag = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ds = flag('--ds', join(root, 'target/release/ds'));
const reps = Number(flag('--reps', '3'));
const PROGRAMS = [
  ['fib', 'bench/programs/fib.ds'],
  ['puzzle8', 'bench/programs/puzzle8.ds'],
  ['wolf_1e4', 'bench/programs/wolf_road.ds'],
];
const { server, base } = await serveFolder(web);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage();
await page.goto(base);
await page.waitForSelector('body[data-run=idle]');

/** The run's time in ms as the worker measured it, and its output. */
async function inPage(code) {
  await page.evaluate((c) => { window.dsPlayground.editor.code = c; document.getElementById('limit-time').value = ''; }, code);
  await page.click('#run');
  await page.waitForSelector('body:not([data-run=running])', { timeout: 600000 });
  const status = await page.textContent('#status');
  return [Number(/in (\d+) ms/.exec(status)?.[1]), await page.textContent('#output')];
}

function native(file) {
  const start = process.hrtime.bigint();
  const out = execFileSync(ds, [file], { cwd: root, encoding: 'utf8' });
  return [Number(process.hrtime.bigint() - start) / 1e6, out];
}

console.log('| program | native (ms) | playground (ms) | ratio |');
console.log('|---|---|---|---|');
for (const [name, file] of PROGRAMS) {
  const code = readFileSync(join(root, file), 'utf8');
  let best = [Infinity, Infinity];
  for (let i = 0; i < reps; i++) {
    const [n, nOut] = native(file);
    const [p, pOut] = await inPage(code);
    if (nOut !== pOut) throw new Error(`${name}: the outputs differ:\n${nOut}\n---\n${pOut}`);
    best = [Math.min(best[0], n), Math.min(best[1], p)];
  }
  console.log(`| ${name} | ${best[0].toFixed(0)} | ${best[1].toFixed(0)} | ${(best[1] / best[0]).toFixed(2)} |`);
}
await browser.close();
server.close();
