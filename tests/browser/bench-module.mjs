// The playground's engine under node (V8, the engine of Chromium), without the page: each
// program run REPS times in one instance of the module, the CPU time of each run
// (process.cpuUsage: steadier than wall time on a shared machine). The first run pays for
// compiling the functions it calls; the best of the others is the module's speed
// (docs/performance.md, "A smaller, faster start").
//
//   cargo xtask web && node tests/browser/bench-module.mjs [FOLDER] [REPS]
//
// FOLDER holds ds_web.js and ds_web_bg.wasm (default target/web).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('../../', import.meta.url).pathname;
const dir = resolve(process.argv[2] || join(root, 'target/web'));
const reps = Number(process.argv[3] || 4);
const glue = await import(pathToFileURL(join(dir, 'ds_web.js')).href);
glue.initSync({ module: await WebAssembly.compile(readFileSync(join(dir, 'ds_web_bg.wasm'))) });
const PROGRAMS = [
  ['fib', 'bench/programs/fib.ds'],
  ['puzzle8', 'bench/programs/puzzle8.ds'],
  ['wolf_1e4', 'bench/programs/wolf_road.ds'],
  ['wolf', 'scripts/wolf.ds'],
];
for (const [name, path] of PROGRAMS) {
  const request = JSON.stringify({ source: readFileSync(join(root, path), 'utf8'), name: path, limits: {} });
  const times = [];
  for (let i = 0; i < reps; i++) {
    const before = process.cpuUsage();
    const answer = JSON.parse(glue.run(request, () => {}));
    const used = process.cpuUsage(before);
    if (answer.status !== 'finished') throw new Error(`${name}: ${answer.status}`);
    times.push(Math.round((used.user + used.system) / 1000));
  }
  console.log(`${name}: first ${times[0]} ms, best of the others ${Math.min(...times.slice(1))} ms (all: ${times.join(' ')})`);
}
