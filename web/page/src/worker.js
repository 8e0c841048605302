// The worker that runs scripts, so that the page never waits for one. It gets the compiled
// engine (a WebAssembly.Module, compiled once by the page) and then requests to run; it posts
// the output as the script writes it, then the answer. Stop is the page ending this worker and
// starting a fresh one: a script in a loop never looks at messages.
//
//   page -> worker: {type: 'init', module}   {type: 'run', id, request}
//   worker -> page: {type: 'ready', version} {type: 'output', id, stream, text}
//                   {type: 'done', id, response}
//                   {type: 'crash', id, message}  (the engine trapped: this worker is done)
import init, { run, last_panic, version } from './ds_web.js';

let ready = null;

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === 'init') {
    ready = init({ module_or_path: message.module }).then(() => self.postMessage({ type: 'ready', version: version() }));
    ready.catch((e) => self.postMessage({ type: 'crash', id: null, message: `the engine cannot start: ${e}` }));
    return;
  }
  if (message.type !== 'run') return;
  await ready;
  const { id, request } = message;
  const output = (stream, text) => self.postMessage({ type: 'output', id, stream, text });
  try {
    const response = JSON.parse(run(JSON.stringify(request), output));
    self.postMessage({ type: 'done', id, response });
  } catch (e) {
    // A panic or a trap (such as the browser's own stack running out): the engine's state
    // may be broken, so the page replaces this worker.
    let panic = '';
    try {
      panic = last_panic();
    } catch {
      // the module is unusable: the trap's own message says what happened
    }
    self.postMessage({ type: 'crash', id, message: panic || String(e && e.message ? e.message : e) });
  }
};
