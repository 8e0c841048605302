// `ds explore` started for the browser tests and the pictures of docs/teaching.md.
import { spawn } from 'node:child_process';

/** Starts `ds explore` (the binary `ds`, in folder `root`) with `args` after `explore`, on a
 * free port, and resolves to the process and its address once it says where it serves. */
export function startExplore(ds, root, args) {
  const child = spawn(ds, ['explore', ...args, '--port', '0'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let said = '';
    child.stderr.on('data', (chunk) => {
      said += chunk;
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(said);
      if (m) resolve({ child, base: m[0] });
    });
    child.on('exit', (code) => reject(new Error(`ds explore ended (${code}): ${said}`)));
  });
}
