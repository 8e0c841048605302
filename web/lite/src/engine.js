// The engine of one notebook kernel: the playground's worker (web/page/src/worker.js) holding
// the WebAssembly module (web/src), whose cells share one session for as long as the worker
// lives. A cell that must stop (interrupt, restart, shutdown) ends the worker: a script in a
// loop never looks at messages. The session is then lost, and a fresh worker starts.
// Completion, inspection and is_complete are answered by a second worker of the same module,
// the analyst, from the text of the cells run so far (each cell's answer gives it), as
// `ds kernel` answers them on a thread of its own: an analysis that fails (a deeply nested cell
// running the tab's stack out) ends the analyst alone, never the session. (JupyterLite's kernel
// client hands the kernel one message at a time, so they still wait for a running cell.)

/** The memory a cell's session may use (the playground's default limit). */
const MAX_MEMORY_BYTES = 1024 << 20;

/** The engine's build (set by `cargo xtask lite`): asked for with its files, so that a browser
 * that kept an older engine in its cache fetches this one. */
// eslint-disable-next-line no-undef
const BUILD = typeof DS_BUILD === 'undefined' ? 'dev' : DS_BUILD;

let compiled = null;

/** The share of the engine's stack in use when the browser's own stack ran out that later cells
 * may use (the playground's rule): the rest is room for the interpreter's error. */
const STACK_SHARE = 0.6;

/** Bytes of the engine's stack a cell may use, once the browser's stack ran out (for the page:
 * every kernel's worker runs in the same browser). */
let stackBudget = null;

/** The engine's module, compiled once per page and handed to every worker. */
function compile(wasmUrl) {
  if (!compiled) {
    compiled = WebAssembly.compileStreaming(fetch(wasmUrl)).catch((e) => {
      compiled = null;
      throw e;
    });
  }
  return compiled;
}

/** An engine started before any kernel asks for one (`prewarm`): the first kernel takes it. */
let spare = null;

/** Starts an engine now, while JupyterLab is still starting, so that the notebook's first cell
 * does not wait for the module to be fetched and compiled and its worker to start. */
export function prewarm(base) {
  if (!spare) spare = new Engine(base);
}

/** An engine for a new kernel: the spare one if it is there, else a new one. */
export function engine(base) {
  const taken = spare;
  spare = null;
  return taken ?? new Engine(base);
}

export class Engine {
  /** `base`: the folder of the extension's static files (worker.js, ds_web.js, the module);
   * `analyst`: this engine runs no cell, it only answers analyses (`analysis`). */
  constructor(base, { analyst = false } = {}) {
    this.base = base;
    this.isAnalyst = analyst;
    this.analyst = null; // started at the first analysis
    this.cells = ''; // the text of the cells run so far without error
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, onOutput}
    this.version = '';
    this.start();
  }

  /** A fresh worker (and session); the old one, if any, is ended. */
  start() {
    this.worker?.terminate();
    this.cells = '';
    const worker = new Worker(new URL(`worker.js?v=${BUILD}`, this.base), { type: 'module' });
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      worker.onmessage = (event) => {
        const m = event.data;
        if (m.type === 'ready') {
          this.version = m.version;
          resolve();
        } else if (m.type === 'crash' && m.id === null) {
          reject(new Error(m.message));
        } else {
          this.fromWorker(m);
        }
      };
      worker.onerror = (e) => {
        const message = `the worker failed: ${e.message || e}`;
        reject(new Error(message));
        this.failAll(message);
      };
    });
    this.ready.catch(() => {}); // asked again by every request, which then fails with it
    compile(new URL(`ds_web_bg.wasm?v=${BUILD}`, this.base).href).then(
      (module) => worker.postMessage({ type: 'init', module }),
      (e) => worker.onerror({ message: `the engine cannot be loaded: ${e.message || e}` }),
    );
  }

  fromWorker(m) {
    const waiting = this.pending.get(m.id);
    if (!waiting) return;
    if (m.type === 'output') return waiting.onOutput?.(m.stream, m.text);
    this.pending.delete(m.id);
    if (m.type === 'done') {
      if (typeof m.response.cells === 'string') this.cells = m.response.cells;
      waiting.resolve({ response: m.response });
    }
    else if (m.type === 'answer') waiting.resolve({ answer: m.answer });
    else if (m.type === 'crash') {
      // A trap or a panic: the module's state may be broken, so the session goes with it.
      const budget = Math.floor((m.stackUsed || 0) * STACK_SHARE);
      if (!this.isAnalyst && /Maximum call stack size exceeded/.test(m.message) && budget > 0) stackBudget = Math.min(stackBudget ?? Infinity, budget);
      this.failAll(m.message);
      this.start();
      waiting.resolve({ crashed: crashMessage(m.message) });
    }
  }

  /** Sends a message to the worker; resolves with {response}, {answer} or {crashed}. */
  async ask(message, onOutput = null) {
    await this.ready;
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, onOutput });
      this.worker.postMessage({ ...message, id });
    });
  }

  /** Runs a cell: `onOutput(stream, text)` gets what it prints as it prints it. */
  cell(code, count, silent, onOutput) {
    const request = { code, count, silent, max_memory_bytes: MAX_MEMORY_BYTES };
    if (stackBudget !== null) request.stack_bytes = stackBudget;
    return this.ask({ type: 'cell', request }, onOutput);
  }

  /** Asks the analyst (`complete`, `inspect`, `is_complete`), with the cells run so far;
   * resolves as `ask` does. A crash there restarts the analyst alone. */
  analysis(message) {
    if (!this.analyst) this.analyst = new Engine(this.base, { analyst: true });
    return this.analyst.ask({ ...message, before: this.cells });
  }

  /** Ends what runs (and the session) and starts afresh: what was waiting gets `why`. */
  restart(why) {
    this.failAll(why);
    this.start();
  }

  /** Every request waiting is answered as stopped (`crashed` holds why). */
  failAll(why) {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const w of waiting) w.resolve({ crashed: why });
  }

  stop() {
    this.failAll('the kernel was shut down');
    this.worker?.terminate();
    this.worker = null;
    this.analyst?.stop();
  }
}

function crashMessage(message) {
  if (/Maximum call stack size exceeded/.test(message)) {
    return 'the browser ran out of stack: the recursion is too deep for this tab; the kernel started a fresh ' +
      'session (run the cells it needs again), whose cells stop such a recursion with an error';
  }
  return `internal error of the engine: ${message}; the kernel started a fresh session (run the cells it needs again)`;
}
