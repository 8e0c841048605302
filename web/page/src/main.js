// The playground's page: the editor, the examples menu, Run and Stop, the output, the files a
// script wrote, Share, Explore. Scripts run in a worker (worker.js), so the page never freezes;
// Stop ends the worker and starts a fresh one. docs/playground.md describes the page.
import { Editor } from './editor.js';
import { Output, picture } from './output.js';
import { graphFigure, worldFigure } from './dot.js';
import { parseFragment, makeFragment, splitArgs, joinArgs } from './fragment.js';
import { fillFields, readFields, ApiRequests, showExplorer, showPane, closeExplorer } from './explore.js';

const $ = (id) => document.getElementById(id);

/** The limits a permalink carries (fragment.js's names), by their fields. */
const LINK_LIMITS = { time: 'limit-time', steps: 'limit-steps', memory: 'limit-memory' };

/** Defaults of the limits that suit a tab (the fields under "limits" change them). */
const LIMIT_FIELDS = {
  timeout_ms: { id: 'limit-time', scale: 1000 },
  max_steps: { id: 'limit-steps', scale: 1 },
  // The engine is 32-bit WebAssembly: its heap and byte counts stop below 4 GB (issue 56).
  max_memory_bytes: { id: 'limit-memory', scale: 1 << 20, max: 4095, unit: 'MB' },
  max_depth: { id: 'limit-depth', scale: 1 },
};

const page = {
  examples: [],          // [{name, title}]
  files: {},             // path -> text: scripts/..., the folder scripts see
  example: null,         // the example loaded last (its name names the program)
  module: null,          // the compiled engine, handed to each new worker
  worker: null,
  workerReady: null,     // resolves when the worker can run
  run: null,             // the run in progress: {id, started, name}
  nextId: 1,
  fileUrls: [],
  failedStarts: 0,       // workers that crashed before they were ready, in a row
  presets: {},           // example name -> the Explore fields the docs give it
  exploring: null,       // the id of the explore run whose explorer the worker holds
  stackBudget: null,     // bytes of the engine's stack a run may use, once the browser's ran out
};

/** The share of the engine's stack in use when the browser's own stack ran out that later
 * runs may use: the rest is room for the interpreter's error and for frames heavier than the
 * ones that ran out (issue 55). */
const STACK_SHARE = 0.6;

/** The explorer's API requests waiting for the worker; Stop ends them too. */
const requests = new ApiRequests((n) => {
  document.body.dataset.asking = n > 0;
  $('stop').disabled = !page.run && n === 0;
});

const output = new Output($('output'));
const editor = new Editor($('editor'), () => run(), () => edited());

/** Text that is no longer the example's is the user's program: the menu and its file name
 * (errors name it) say so, rather than keeping the last example's (issue 55). */
function edited() {
  if (page.example === null || editor.code === page.files[`scripts/${page.example}.ds`]) return;
  page.example = null;
  $('example').value = '';
}

// ------------------------------------------------------------------ the worker

/** A fresh worker holding the engine; the old one, if any, is ended. */
function startWorker() {
  page.worker?.terminate();
  // The explorer the engine held ends with it.
  requests.failAll('the explorer ended with its worker (stopped or replaced): press Explore to start it again');
  page.exploring = null;
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  page.worker = worker;
  page.workerReady = new Promise((resolve) => {
    worker.onmessage = (event) => {
      if (event.data.type === 'ready') {
        page.failedStarts = 0;
        resolve();
        $('version').textContent = 'ds ' + event.data.version;
      }
      fromWorker(event.data);
    };
  });
  worker.onerror = (e) => crashed(`the worker failed: ${e.message || e}`);
  worker.postMessage({ type: 'init', module: page.module });
}

function fromWorker(message) {
  if (message.type === 'answer') return requests.answer(message.id, message.answer);
  if (message.type === 'crash' && requests.has(message.id)) return explorerCrashed(message.message);
  // What the explorer's demons print while it answers belongs to the explore run.
  if (message.type === 'output' && !page.run && message.id === page.exploring) return showOutput(message);
  if (!page.run || message.id !== page.run.id) {
    if (message.type === 'crash' && message.id === null) crashed(message.message, 0);
    return;
  }
  if (message.type === 'output') showOutput(message);
  else if (message.type === 'done') finished(message.response);
  else if (message.type === 'crash') crashed(message.message, message.stackUsed);
}

/** A chunk of output, or the live line of a long search ("status": "" when it ends). */
function showOutput(message) {
  if (message.stream === 'status') return showSearchLine(message.text);
  output.append(message.stream, message.text);
}

function showSearchLine(text) {
  $('search-line').textContent = text;
  $('search-line').hidden = text === '';
}

// ------------------------------------------------------------------ running

/** The limits of the fields, or `{problem}` when one is out of its range. */
function limits() {
  const out = {};
  for (const [key, { id, scale, max, unit }] of Object.entries(LIMIT_FIELDS)) {
    const n = Number($(id).value);
    if (max !== undefined && n > max) {
      return { problem: `the ${$(id).dataset.name} limit can be at most ${max} ${unit} in the playground (its engine is 32-bit WebAssembly, which addresses 4 GB)` };
    }
    if ($(id).value.trim() !== '' && Number.isFinite(n) && n > 0) out[key] = Math.round(n * scale);
  }
  return { limits: out };
}

/** Runs the program; `extra` adds to the request (`explore`: the Explore panel's fields). */
async function run(extra = {}) {
  if (page.run) return;
  // Programs live in scripts/ of the folder, as on the command line run from the repository's
  // root: `#include "wolf/actions.ds"` and `scripts/data/...` arguments work as there.
  const name = `scripts/${page.example || 'playground'}.ds`;
  const { limits: asked, problem } = limits();
  if (problem) {
    output.clear();
    output.note(`error: ${problem}\n`);
    return setState('bad_request', 'not run: a limit is out of range');
  }
  if (page.stackBudget !== null) asked.stack_bytes = page.stackBudget;
  const request = { source: editor.code, name, args: splitArgs($('args').value), files: page.files, limits: asked, ...extra };
  page.run = { id: page.nextId++, started: performance.now(), name, explore: extra.explore || null, request };
  showPane(false); // the output; an explore that succeeds shows the explorer again
  output.clear();
  editor.mark([]);
  showFiles([]);
  showWorld(null);
  setState('running', 'running…');
  await page.workerReady;
  if (page.run) page.worker.postMessage({ type: 'run', id: page.run.id, request });
}

function finished(response) {
  const { id, name, explore } = page.run;
  page.run = null;
  output.finish();
  for (const d of response.diagnostics) output.append('err', d.rendered);
  output.finish();
  editor.mark(response.diagnostics.filter((d) => d.file === name));
  showFiles(response.files_written);
  showWorld(response.world);
  // The state says the run is over once its output is all on the page (it is shown in slices).
  const current = page.nextId;
  output.idle().then(() => { if (!page.run && page.nextId === current) ended(id, name, explore, response); });
}

function ended(id, name, explore, response) {
  const ms = Math.round(response.ms);
  const words = {
    finished: `finished in ${ms} ms`,
    exited: `exited with status ${response.exit_code} after ${ms} ms`,
    compile_error: 'not run: the program has errors',
    runtime_error: `stopped by an error after ${ms} ms`,
    bad_request: 'the page could not run this',
  };
  setState(response.status, words[response.status] || response.status);
  if (explore && response.explorer) explored(id, name, explore, response.explorer);
}

// ------------------------------------------------------------------ exploring

/** Explore: the program runs in a fresh worker (which frees the explorer an earlier one
 * held) with the panel's fields, and its explorer is shown once the engine holds it. */
function explore() {
  if (page.run) return;
  const { names, error } = readFields();
  if (error) return setState('idle', error);
  if (page.exploring !== null || requests.size) startWorker();
  closeExplorer();
  run({ explore: names });
}

function explored(id, name, names, explorer) {
  if (explorer.error) {
    output.append('err', explorer.error.replace(/\n?$/, '\n'));
    output.finish();
    setState('explore_error', 'the explorer cannot start (see the output)');
    return;
  }
  page.exploring = id;
  const optional = ['h', 'view'].filter((f) => names[f]).map((f) => `, ${f} ${names[f]}`).join('');
  showExplorer(`${name}: start ${names.start}, next ${names.next}, goal ${names.goal}${optional}`);
  setState('exploring', `exploring ${name}`);
}

/** The explorer's page asks the API (app.js's transport): the worker's engine answers. */
function askExplorer(path) {
  if (page.exploring === null) {
    return Promise.reject(new Error('nothing is explored now (the worker was stopped or replaced): press Explore again'));
  }
  return requests.ask(page.nextId++, (id) => page.worker.postMessage({ type: 'api', id, path }));
}

function explorerCrashed(message) {
  requests.failAll(`the explorer failed: ${message}`);
  startWorker();
  output.note(`\ninternal error of the playground while exploring: ${message}\n(the engine was restarted; press Explore again)\n`);
  setState('crashed', 'internal error');
}

/** Stop: the worker is ended (a script in a loop never stops by itself) and a fresh one
 * started, so that the next run can begin at once. */
function stop() {
  if (!page.run && !requests.size) return;
  const seconds = ((performance.now() - (page.run?.started ?? requests.since)) / 1000).toFixed(1);
  page.run = null;
  startWorker();
  // What the script wrote and the page did not show yet is dropped: Stop answers at once.
  const dropped = output.discard();
  output.finish();
  output.note(`${dropped ? `\n… ${dropped} characters of output not shown` : ''}\nstopped after ${seconds} s\n`);
  const current = page.nextId;
  output.idle().then(() => { if (!page.run && page.nextId === current) setState('stopped', `stopped after ${seconds} s`); });
}

/** The engine trapped. When the browser's own stack ran out (it holds less than the engine's,
 * and how much less depends on the browser and on how far it optimised the engine), the run
 * starts again at once with a stack budget below the depth it reached: the interpreter then
 * stops the recursion itself, with its error and the call stack, and so do later runs. */
function crashed(message, stackUsed) {
  const wasRunning = page.run !== null;
  const lost = page.run;
  page.run = null;
  const overflow = /Maximum call stack size exceeded/.test(message);
  const budget = Math.floor(stackUsed * STACK_SHARE);
  if (wasRunning && overflow && budget > 0 && !(lost.request.limits.stack_bytes <= budget)) {
    page.stackBudget = Math.min(page.stackBudget ?? Infinity, budget);
    startWorker();
    return runAgain(lost);
  }
  // An engine that cannot even start would crash again at once: after a few tries the page
  // says so instead of starting workers for ever.
  if (!wasRunning && ++page.failedStarts > 2) {
    setState('crashed', 'the engine cannot start');
    output.note(`\nthe playground's engine cannot start: ${message}\n`);
    return;
  }
  startWorker();
  output.finish();
  if (/Maximum call stack size exceeded/.test(message)) {
    // The browser's own stack is smaller than the interpreter's native one: a depth limit
    // above what the tab holds ends here rather than in a ds error.
    output.note('\nerror: the browser ran out of stack: the recursion is too deep for this tab ' +
      '(lower "demon call depth" under limits to get a ds error with the call stack)\n');
  } else {
    output.note(`\ninternal error of the playground: ${message}\n(the engine was restarted; please report this with the program)\n`);
  }
  if (wasRunning) setState('crashed', 'internal error');
}

/** Runs a request again, within the page's stack budget, as the same run for the user. */
async function runAgain(lost) {
  const request = { ...lost.request, limits: { ...lost.request.limits, stack_bytes: page.stackBudget } };
  page.run = { ...lost, id: page.nextId++, request };
  output.clear();
  editor.mark([]);
  await page.workerReady;
  if (page.run) page.worker.postMessage({ type: 'run', id: page.run.id, request });
}

// ------------------------------------------------------------------ sizes

/** The text size of the editor and the output (px), and the pictures' zoom: for a projector
 * (issue 55). Kept in the browser for the next visit. */
const TEXT_SIZES = [10, 11, 12, 13, 14, 16, 18, 20, 24, 28, 32];

function setTextSize(px) {
  const size = TEXT_SIZES.includes(px) ? px : 13;
  document.documentElement.style.setProperty('--text-size', `${size}px`);
  document.body.dataset.textSize = size;
  try { localStorage.setItem('ds-text-size', String(size)); } catch { /* storage refused: the size still applies */ }
  editor.view.requestMeasure();
}

function stepTextSize(step) {
  const now = Number(document.body.dataset.textSize) || 13;
  const i = TEXT_SIZES.indexOf(now);
  setTextSize(TEXT_SIZES[Math.min(Math.max(i + step, 0), TEXT_SIZES.length - 1)]);
}

function setPictureZoom(zoom) {
  const z = Number(zoom) > 0 ? Number(zoom) : 1;
  document.documentElement.style.setProperty('--picture-zoom', String(z));
  $('picture-size').value = String(z);
  try { localStorage.setItem('ds-picture-zoom', String(z)); } catch { /* as above */ }
  // Graphs are drawn on canvases: they are fitted to their resized boxes again.
  for (const box of document.querySelectorAll('.graph-box')) {
    if (!box.cy) continue;
    box.cy.resize();
    box.cy.fit(undefined, 12);
  }
}

function restoreSizes() {
  let text = 13, zoom = 1;
  try {
    text = Number(localStorage.getItem('ds-text-size')) || 13;
    zoom = Number(localStorage.getItem('ds-picture-zoom')) || 1;
  } catch { /* storage refused: the defaults */ }
  setTextSize(text);
  setPictureZoom(zoom);
  $('text-smaller').onclick = () => stepTextSize(-1);
  $('text-larger').onclick = () => stepTextSize(1);
  $('picture-size').onchange = () => setPictureZoom($('picture-size').value);
}

function setState(state, text) {
  // (a run stopped in a search never sends the line's end)
  if (state !== 'running') showSearchLine('');
  document.body.dataset.run = state;
  $('status').textContent = text;
  $('run').disabled = state === 'running';
  $('stop').disabled = state !== 'running' && !requests.size;
  $('explore-go').disabled = state === 'running';
}

// ------------------------------------------------------------------ files the script wrote

function showFiles(files) {
  for (const url of page.fileUrls) URL.revokeObjectURL(url);
  page.fileUrls = [];
  const list = $('files');
  list.replaceChildren();
  $('files-box').hidden = files.length === 0;
  for (const { path, text } of files) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    page.fileUrls.push(url);
    link.href = url;
    link.download = path.split('/').pop() || 'file.txt';
    link.textContent = `${path} (${text.length} bytes)`;
    item.append(link);
    if (/\.svg$/i.test(path) && /<svg[\s>]/.test(text)) item.append(picture(text, page.fileUrls));
    const graph = /\.(dot|gv)$/i.test(path) ? graphFigure(text.trim()) : null;
    if (graph) item.append(graph);
    list.append(item);
  }
}

/** Draws the world the run ended with (its current graph), below the output. */
function showWorld(world) {
  const box = $('world-box');
  box.replaceChildren();
  const figure = world && Array.isArray(world.facts) ? worldFigure(world) : null;
  if (figure) box.append(figure);
  box.hidden = !figure;
}

// ------------------------------------------------------------------ examples and links

function loadExample(name) {
  const text = page.files[`scripts/${name}.ds`];
  if (text === undefined) return false;
  page.example = name;
  editor.code = text;
  fillFields(page.presets[name]);
  $('example').value = name;
  return true;
}

/** Opens what the fragment says; runs only when it says `run` (or explores, `explore`). */
function openFragment() {
  const f = parseFragment(location.hash);
  if (f.example !== null && !loadExample(f.example)) f.problems.push(`there is no example \`${f.example}\``);
  if (f.code !== null) {
    page.example = null;
    $('example').value = '';
    editor.code = f.code;
  }
  if (f.args !== null) $('args').value = joinArgs(f.args);
  // A link says its limits; those it does not say are the page's defaults.
  for (const [key, id] of Object.entries(LINK_LIMITS)) $(id).value = f.limits[key] ?? $(id).defaultValue;
  output.clear();
  editor.mark([]);
  // A link with Explore fields shows them (and no others: the link says the whole setup).
  if (Object.keys(f.explore).length) {
    fillFields(f.explore);
    $('explore-box').hidden = false;
  }
  if (f.problems.length) {
    output.note(f.problems.map((p) => `this link: ${p}\n`).join(''));
    setState('idle', 'the link has problems (see the output)');
  } else if (f.exploreNow) explore();
  else if (f.run) run();
}

function share() {
  const linkLimits = {};
  for (const [key, id] of Object.entries(LINK_LIMITS)) if ($(id).value.trim() !== '') linkLimits[key] = $(id).value.trim();
  const fields = readFields();
  const explore = fields.names ?? {};
  const hash = makeFragment({ code: editor.code, args: splitArgs($('args').value), limits: linkLimits, explore });
  history.replaceState(null, '', hash);
  const link = location.href;
  $('share-link').value = link;
  $('share-box').hidden = false;
  $('share-link').select();
  navigator.clipboard?.writeText(link).then(() => { $('share-note').textContent = 'copied'; }, () => {});
}

function fillExamples() {
  const select = $('example');
  for (const { name, title } of page.examples) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = title ? `${name}: ${title}` : name;
    select.append(option);
  }
  select.onchange = () => {
    if (!select.value) {
      // "(your program)": the text stays, and is the user's program from now on.
      page.example = null;
      return;
    }
    loadExample(select.value);
    $('args').value = '';
    history.replaceState(null, '', makeFragment({ example: select.value }));
    output.clear();
    editor.mark([]);
    setState('idle', '');
  };
}

// ------------------------------------------------------------------ start

/** The engine compiled once (each worker gets the module). A server that does not say
 * `application/wasm` cannot stream it: then it is compiled from its bytes. */
async function compileEngine(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  if ((response.headers.get('content-type') || '').startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

async function boot() {
  setState('loading', 'loading…');
  $('run').onclick = () => run();
  $('stop').onclick = () => stop();
  $('share').onclick = () => share();
  restoreSizes();
  $('help').onclick = () => { $('help-box').hidden = !$('help-box').hidden; };
  $('explore').onclick = () => { $('explore-box').hidden = !$('explore-box').hidden; };
  $('explore-form').onsubmit = (e) => { e.preventDefault(); explore(); };
  $('explorer-close').onclick = () => showPane(false);
  $('explorer-show').onclick = () => showPane(true);
  window.dsExplorerTransport = askExplorer;
  try {
    const [examples, module] = await Promise.all([
      fetch('examples.json').then((r) => r.json()),
      compileEngine('ds_web_bg.wasm'),
    ]);
    page.examples = examples.examples;
    page.files = examples.files;
    page.presets = examples.explore || {};
    page.module = module;
  } catch (e) {
    setState('crashed', 'the page could not load');
    output.note(`the playground could not load its engine or examples: ${e}\n`);
    return;
  }
  fillExamples();
  startWorker();
  await page.workerReady;
  setState('idle', 'ready');
  if (location.hash.length > 1) openFragment();
  else loadExample('tour');
  window.addEventListener('hashchange', () => openFragment());
}

// For the browser tests and the console.
window.dsPlayground = { editor, page, run, stop, share, explore };

boot();
