// The golden cases of tests/expected/ run by the WebAssembly engine of the playground
// (target/web/ds_web_bg.wasm, built by `cargo xtask web`) under node: the module the page's
// worker runs, given the same folder (every file of scripts/) and the arguments of each
// `.args` file, must print the expected output (lines starting with `time:` left out, as in
// the interpreter's own golden tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const web = process.env.WEB || join(root, 'target/web');

/** Every file under scripts/, by its path from the root (what examples.json holds). */
function folder(dir, into = {}) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) folder(path, into);
    else into[relative(root, path)] = readFileSync(path, 'utf8');
  }
  return into;
}

const withoutTimes = (s) => s.split('\n').filter((l) => !l.startsWith('time:')).join('\n');

test('every golden case gives its expected output under wasm', async () => {
  const engine = await import(join(web, 'ds_web.js'));
  engine.initSync({ module: readFileSync(join(web, 'ds_web_bg.wasm')) });
  const files = folder(join(root, 'scripts'));
  const expected = join(root, 'tests/expected');
  const cases = readdirSync(expected).filter((f) => f.endsWith('.out')).map((f) => f.slice(0, -4)).sort();
  assert.ok(cases.length > 100, `${cases.length} cases`);
  const failures = [];
  for (const c of cases) {
    const args = c.includes('@')
      ? readFileSync(join(expected, `${c}.args`), 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'))
      : [];
    const name = `scripts/${c.split('@')[0]}.ds`;
    let out = '';
    const request = { source: files[name], name, args, files, limits: {} };
    const answer = JSON.parse(engine.run(JSON.stringify(request), (stream, text) => { if (stream === 'out') out += text; }));
    const want = readFileSync(join(expected, `${c}.out`), 'utf8');
    if (answer.status !== 'finished' || withoutTimes(out) !== withoutTimes(want)) {
      failures.push(`${c}: ${answer.status} ${answer.diagnostics.map((d) => d.rendered).join('')}`);
    }
  }
  assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases differ`);
});
