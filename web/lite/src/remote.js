// The extension's entry: a federated module container, as JupyterLite loads every prebuilt
// extension (its bootstrap.js runs this script, calls `init` with the page's shared modules,
// then `get('./extension')` and the factory it resolves to). The kernel takes one shared
// module, `@jupyterlite/services` (BaseKernel and the tokens), from the page; everything else
// is its own, bundled here by esbuild (`cargo xtask lite`), so no webpack build is needed.
import { plugins } from './kernel.js';

const NAME = 'ds-jupyterlite-kernel';

/** The folder of this script: the extension's static files are beside it. */
const base = new URL('.', document.currentScript.src).href;

let shared = null;

/** Compares dotted versions (numbers first, then the rest as text). */
function newer(a, b) {
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const [x, y] = [pa[i] ?? '', pb[i] ?? ''];
    const [nx, ny] = [Number(x), Number(y)];
    if (x === y) continue;
    if (Number.isInteger(nx) && Number.isInteger(ny)) return nx > ny;
    return x > y;
  }
  return false;
}

/** A module the page shares (its newest version): what its factory gives. */
async function sharedModule(name) {
  const versions = shared?.[name];
  if (!versions || Object.keys(versions).length === 0) {
    throw new Error(`${NAME}: the page shares no ${name} (is this JupyterLite 0.8?)`);
  }
  const version = Object.keys(versions).reduce((best, v) => (newer(v, best) ? v : best));
  const entry = versions[version];
  const factory = await entry.get();
  entry.loaded = 1;
  return typeof factory === 'function' ? factory() : factory;
}

window._JUPYTERLAB = window._JUPYTERLAB || {};
window._JUPYTERLAB[NAME] = {
  init(scope) {
    shared = scope;
  },
  async get(module) {
    if (module !== './extension') throw new Error(`${NAME} has no module ${module}`);
    const services = await sharedModule('@jupyterlite/services');
    const exports = { __esModule: true, default: plugins(services, base) };
    return () => exports;
  },
};
