// The `ds` kernel of JupyterLite: Jupyter's messages made from what the engine (engine.js, the
// playground's worker and WebAssembly module) says about a cell. What a cell shows is made by
// `ds kernel`'s own display code compiled into the module (web/src/notebook.rs): the kernel
// here only turns it into messages, as crates/kernel/src/server.rs does on ZeroMQ.
import { engine, prewarm } from './engine.js';

export const PLUGIN_ID = 'ds-jupyterlite-kernel:kernel';

/** The kernel's messages' protocol version (`ds kernel`'s). */
const PROTOCOL_VERSION = '5.3';

/** The plugins of the extension, over JupyterLite's shared `@jupyterlite/services` (its
 * `BaseKernel` and the `IKernelSpecs` and `IKernelClient` tokens); `base` is the folder of
 * the extension's static files. */
export function plugins(services, base) {
  const { BaseKernel, IKernelSpecs, IKernelClient } = services;
  const kernels = new Map(); // id -> DsKernel, for interrupts
  // The engine starts while JupyterLab does (its module fetched and compiled, its worker
  // ready), except on the list of files, which runs no cell.
  if (!/\/tree\//.test(location.pathname)) prewarm(base);

  class DsKernel extends BaseKernel {
    constructor(options) {
      super(options);
      this.engine = engine(base);
      kernels.set(this.id, this);
    }

    get ready() {
      return this.engine.ready;
    }

    dispose() {
      if (this.isDisposed) return;
      kernels.delete(this.id);
      this.engine.stop();
      super.dispose();
    }

    /** Stops the running cell: the worker ends and a fresh one starts (the session's state
     * is lost, as after a restart). */
    interrupt() {
      this.engine.restart('interrupted: the kernel stopped the cell and started a fresh session; run the cells it needs again');
    }

    async kernelInfoRequest() {
      await this.engine.ready.catch(() => {});
      const version = this.engine.version || 'unknown';
      return {
        status: 'ok',
        protocol_version: PROTOCOL_VERSION,
        implementation: 'ds',
        implementation_version: version,
        language_info: { name: 'ds', version, mimetype: 'text/x-demonscript', file_extension: '.ds' },
        banner: `ds ${version} (DemonScript) in the browser: worlds are three-valued graphs, demons rewrite them`,
        help_links: [],
      };
    }

    async executeRequest(content) {
      const parent = this.parentHeader;
      const count = this.executionCount;
      const onOutput = (stream, text) => {
        if (stream === 'shown') this.displayData(JSON.parse(text), parent);
        else if (stream === 'status') this.searchLine(JSON.parse(text), parent);
        else this.stream({ name: stream === 'err' ? 'stderr' : 'stdout', text }, parent);
      };
      let answer;
      try {
        answer = await this.engine.cell(content.code, count, !!content.silent, onOutput);
      } catch (e) {
        answer = { crashed: `the engine cannot start: ${e.message || e}` };
      }
      if (answer.crashed !== undefined) {
        const why = answer.crashed;
        const error = { ename: /^interrupted/.test(why) ? 'Interrupted' : 'Error', evalue: why, traceback: [`error: ${why}`] };
        this.publishExecuteError(error, parent);
        return { status: 'error', execution_count: count, ...error };
      }
      const { reply, result } = answer.response;
      if (result) this.publishExecuteResult({ execution_count: count, data: result, metadata: {} }, parent);
      if (reply.status === 'error') {
        const { ename, evalue, traceback } = reply;
        this.publishExecuteError({ ename, evalue, traceback }, parent);
      }
      return { ...reply, execution_count: count };
    }

    /** A long search's line (`ds kernel`'s messages, web/src/status.rs): a `display_data`,
     * then updated in place by its `display_id`, and emptied when the search ends. */
    searchLine({ msg_type: type, content }, parent) {
      if (type === 'display_data') this.displayData(content, parent);
      else if (type === 'update_display_data') this.updateDisplayData(content, parent);
    }

    async completeRequest(content) {
      const answer = await this.engine.analysis({ type: 'complete', code: content.code, cursor: content.cursor_pos }).catch(() => ({}));
      return answer.answer ?? { status: 'ok', matches: [], cursor_start: content.cursor_pos, cursor_end: content.cursor_pos, metadata: {} };
    }

    async isCompleteRequest(content) {
      const answer = await this.engine.analysis({ type: 'is_complete', code: content.code }).catch(() => ({}));
      return answer.answer ?? { status: 'unknown' };
    }

    async inspectRequest(content) {
      const answer = await this.engine.analysis({ type: 'inspect', code: content.code, cursor: content.cursor_pos }).catch(() => ({}));
      return answer.answer ?? { status: 'ok', found: false, data: {}, metadata: {} };
    }

    async commInfoRequest() {
      return { status: 'ok', comms: {} };
    }

    inputReply() {}

    async commOpen() {}

    async commMsg() {}

    async commClose() {}
  }

  const logo = new URL('logo-64x64.png', base).href;
  const kernel = {
    id: PLUGIN_ID,
    description: 'The ds (DemonScript) kernel: the WebAssembly engine in a Web Worker',
    autoStart: true,
    requires: [IKernelSpecs],
    optional: IKernelClient ? [IKernelClient] : [],
    activate: (app, kernelspecs, kernelClient) => {
      kernelspecs.register({
        spec: {
          name: 'ds',
          display_name: 'ds (DemonScript)',
          language: 'ds',
          argv: [],
          resources: { 'logo-32x32': logo, 'logo-64x64': logo },
        },
        create: async (options) => new DsKernel(options),
      });
      // JupyterLite's own interrupt only drops the cells waiting behind the running one: the
      // running cell is stopped here, by ending its worker.
      if (kernelClient && typeof kernelClient.interrupt === 'function') {
        const interrupt = kernelClient.interrupt.bind(kernelClient);
        kernelClient.interrupt = async (id) => {
          const done = interrupt(id);
          kernels.get(id)?.interrupt();
          return done;
        };
      }
    },
  };
  return [kernel];
}
