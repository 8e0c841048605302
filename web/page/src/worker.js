// The worker that runs scripts, so that the page never waits for one. It gets the compiled
// engine (a WebAssembly.Module, compiled once by the page) and then requests to run; it posts
// the output as the script writes it, then the answer. Stop is the page ending this worker and
// starting a fresh one: a script in a loop never looks at messages. A run whose request says
// `explore` leaves the engine holding the script's explorer, whose API the page then asks.
// The notebook's kernel in the browser (web/lite/) uses this worker too: its cells run in one
// session that lasts as long as the worker (`cell`), and it asks another worker for completion
// and inspection.
//
//   page -> worker: {type: 'init', module}   {type: 'run', id, request}   {type: 'api', id, path}
//                   {type: 'cell', id, request: {code, count, silent, max_memory_bytes}}
//                   {type: 'complete', id, before, code, cursor}   {type: 'is_complete', id, code}
//                   {type: 'inspect', id, before, code, cursor}
//   worker -> page: {type: 'ready', version} {type: 'output', id, stream, text}
//                   {type: 'done', id, response}   {type: 'answer', id, answer: {status, body}}
//                   (a cell's response: {reply, result, cells}; completion's answer: the
//                   content of its Jupyter reply; `before`: a cell's `cells`)
//                   {type: 'crash', id, message, stackUsed}  (the engine trapped: this worker is
//                   done; stackUsed: the module's stack in use when the browser's ran out, or 0)
import init, { run, explorer_api, last_panic, stack_used, version, cell, cell_complete, cell_inspect, cell_is_complete, warm_up } from './ds_web.js';

let ready = null;

/** The output of one run posted to the page at most (characters). */
const MAX_POSTED = 8 << 20;

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === 'init') {
    // The warm-up script runs before the worker says it is ready: the browser compiles the
    // engine's functions as they are first called, and that cost is paid here, when the page
    // loads (or Stop starts a worker), not by the user's first run (docs/performance.md).
    ready = init({ module_or_path: message.module }).then(() => {
      warm_up();
      self.postMessage({ type: 'ready', version: version() });
    });
    ready.catch((e) => self.postMessage({ type: 'crash', id: null, message: `the engine cannot start: ${e}` }));
    return;
  }
  if (!['run', 'api', 'cell', 'complete', 'inspect', 'is_complete'].includes(message.type)) return;
  await ready;
  const { id } = message;
  // The page shows at most a few MB (output.js): past twice that, the rest of a flood is not
  // posted at all, so that it cannot keep the page's thread busy receiving it (issue 56).
  let posted = 0;
  const output = (stream, text) => {
    posted += text.length;
    if (posted <= MAX_POSTED) self.postMessage({ type: 'output', id, stream, text });
  };
  try {
    if (message.type === 'api') {
      self.postMessage({ type: 'answer', id, answer: JSON.parse(explorer_api(message.path)) });
    } else if (message.type === 'cell') {
      const response = JSON.parse(cell(JSON.stringify(message.request), output));
      self.postMessage({ type: 'done', id, response });
    } else if (message.type === 'complete') {
      self.postMessage({ type: 'answer', id, answer: JSON.parse(cell_complete(message.before, message.code, message.cursor)) });
    } else if (message.type === 'inspect') {
      self.postMessage({ type: 'answer', id, answer: JSON.parse(cell_inspect(message.before, message.code, message.cursor)) });
    } else if (message.type === 'is_complete') {
      self.postMessage({ type: 'answer', id, answer: JSON.parse(cell_is_complete(message.code)) });
    } else {
      const response = JSON.parse(run(JSON.stringify(message.request), output));
      self.postMessage({ type: 'done', id, response });
    }
  } catch (e) {
    // A panic or a trap (such as the browser's own stack running out): the engine's state
    // may be broken, so the page replaces this worker.
    let panic = '';
    let stackUsed = 0;
    try {
      panic = last_panic();
      // The browser's stack ran out: how deep the module's own stack was then.
      if (e instanceof RangeError) stackUsed = stack_used();
    } catch {
      // the module is unusable: the trap's own message says what happened
    }
    self.postMessage({ type: 'crash', id, message: panic || String(e && e.message ? e.message : e), stackUsed });
  }
};
