// ds explore's page: asks the JSON API (docs/explorer.md) for states, draws the states around
// the current one and its world with cytoscape.js (dagre layouts), and replays searches.
'use strict';

cytoscape.use(cytoscapeDagre);

const $ = (id) => document.getElementById(id);
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#86bcb6'];
/** A replay draws at most this many of the states the search met. */
const REPLAY_NODES = 400;

const ui = {
  stats: null,
  cache: new Map(),      // id -> state, as /api/state/ID gave it
  current: null,         // the state shown
  path: [],              // /api/path of the current state
  back: [],
  forward: [],
  chosen: 0,             // the action the arrow keys point at
  graphs: true,          // the states are graphs (else values, named by their printed form)
  mode: 'explore',       // or 'replay'
  replay: null,          // /api/search's answer
  step: 0,               // expansions of the replay shown
  timer: null,
  classColour: new Map(),
};

// ------------------------------------------------------------------ the API

async function api(path) {
  const response = await fetch('/api/' + path);
  const body = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

/** A state, from the cache unless its successors were not known yet. */
async function getState(id) {
  let s = ui.cache.get(id);
  if (!s || (s.successors === null && !s.error)) {
    s = await api('state/' + id);
    ui.cache.set(id, s);
  }
  return s;
}

function showError(e) {
  const box = $('error');
  box.textContent = e ? String(e.message || e) : '';
  box.hidden = !e;
}

function busy(on) {
  document.body.classList.toggle('busy', on);
  document.body.style.cursor = on ? 'progress' : '';
}

async function refreshStats() {
  const s = ui.stats = await api('stats');
  const parts = [`${s.states} states known`, `${s.expanded} expanded`, `${s.transitions} transitions`,
    `${s.goals} goal${s.goals === 1 ? '' : 's'}`];
  if (s.complete) parts.push('all expanded');
  if (s.stopped) parts.push(`stopped at --max-states`);
  $('stats').textContent = parts.join(' \u00b7 ');
}

// ------------------------------------------------------------------ moving around

/** Shows state `id`. `how`: 'new' (a step: history grows), 'back', 'forward', or 'replay'
 * (the replay shows its state without touching the history). */
async function go(id, how = 'new') {
  busy(true);
  try {
    const s = await getState(id);
    const path = await api('path/' + id);
    if (how === 'new' && ui.current !== null && ui.current !== id) {
      ui.back.push(ui.current);
      ui.forward = [];
    }
    ui.current = id;
    ui.path = path;
    ui.chosen = 0;
    history.replaceState(null, '', '#state=' + id);
    showError(null);
    render(s);
    await refreshStats();
  } catch (e) {
    showError(e);
  } finally {
    busy(false);
  }
}

function goBack() {
  if (!ui.back.length) return;
  ui.forward.push(ui.current);
  go(ui.back.pop(), 'back');
}

function goForward() {
  if (!ui.forward.length) return;
  ui.back.push(ui.current);
  go(ui.forward.pop(), 'forward');
}

function goParent() {
  const s = ui.cache.get(ui.current);
  if (s && s.parent !== null) go(s.parent);
}

function takeAction(n) {
  const s = ui.cache.get(ui.current);
  if (s && s.successors && n < s.successors.length) go(s.successors[n].id);
}

// ------------------------------------------------------------------ the panel

function render(s) {
  document.body.dataset.state = s.id;
  document.body.dataset.goal = s.goal;
  $('state-id').textContent = s.id;
  $('goal-badge').hidden = !s.goal;
  $('state-name').textContent = s.name;
  const numbers = [`depth ${s.depth}`, `g ${num(s.g)}`];
  if (s.h !== null) numbers.push(`h ${num(s.h)}`, `f ${num(s.g + s.h)}`);
  $('state-numbers').textContent = numbers.join(' \u00b7 ');
  $('state-error').hidden = !s.error;
  $('state-error').textContent = s.error || '';
  renderActions(s);
  renderPath();
  $('back').disabled = !ui.back.length;
  $('forward').disabled = !ui.forward.length;
  $('parent').disabled = s.parent === null;
  renderView(s);
  if (ui.mode === 'explore') drawSpace(s);
  drawWorld(s.view && s.view.graph ? viewWorld(s.view.graph) : s);
  renderFacts(s);
}

// ------------------------------------------------------------------ the state's view (--view)

/** An SVG view as an image's address. An <img> runs no script the picture may hold. */
function svgUrl(svg) {
  return 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
}

/** The state drawn by --view: a picture, a text in a fixed-width font, or (a graph) a note that
 * the world pane draws it; an error in the view is shown in its place. */
function renderView(s) {
  const box = $('view');
  box.replaceChildren();
  box.hidden = !s.view;
  if (!s.view) return;
  if (s.view.svg !== undefined) {
    const img = document.createElement('img');
    img.src = svgUrl(s.view.svg);
    img.alt = `state ${s.id} as the view draws it`;
    box.append(img);
  } else if (s.view.text !== undefined) {
    const pre = document.createElement('pre');
    pre.textContent = s.view.text;
    box.append(pre);
  } else if (s.view.graph) {
    const p = document.createElement('p');
    p.textContent = `the view is the graph ${s.view.graph.name}, drawn in the world pane`;
    box.append(p);
  } else {
    const p = document.createElement('p');
    p.className = 'view-error';
    p.textContent = 'the view failed: ' + s.view.error;
    box.append(p);
  }
}

/** A graph view as drawWorld takes a state: its nodes are those its facts name in the graph
 * itself (the others are nodes of other graphs, `Graph.node`). */
function viewWorld(graph) {
  const nodes = new Set();
  for (const [src, , tgt] of graph.facts) {
    nodes.add(src);
    if (!tgt.includes('.')) nodes.add(tgt);
  }
  return { nodes: [...nodes], facts: graph.facts, text: graph.name };
}

/** An action as the page writes it: a string as itself, another value (a number, an array)
 * as JSON, `none` for null. */
function actionText(action, none) {
  if (action === null) return none;
  return typeof action === 'string' ? action : JSON.stringify(action);
}

function num(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

function renderActions(s) {
  const list = $('actions');
  list.replaceChildren();
  if (!s.successors) {
    const li = document.createElement('li');
    li.className = 'none';
    li.textContent = s.error ? 'its successors could not be computed' : 'not expanded (--max-states reached)';
    list.append(li);
    return;
  }
  if (!s.successors.length) {
    const li = document.createElement('li');
    li.className = 'none';
    li.textContent = 'none: a dead end';
    list.append(li);
  }
  s.successors.forEach((t, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.dataset.action = actionText(t.action, '');
    b.dataset.id = t.id;
    b.className = (t.goal ? 'goal' : '') + (i === ui.chosen ? ' chosen' : '');
    b.title = `to state ${t.id}` + (t.cost !== 1 ? `, cost ${num(t.cost)}` : '') + (t.goal ? ' (a goal)' : '');
    b.innerHTML = `<span class="key">${i < 9 ? i + 1 : ''}</span><span class="act"></span><span class="to">#${t.id}${t.goal ? ' goal' : ''}</span>`;
    b.querySelector('.act').textContent = actionText(t.action, '(no action)');
    b.addEventListener('click', () => go(t.id));
    li.append(b);
    list.append(li);
  });
}

function moveChoice(delta) {
  const s = ui.cache.get(ui.current);
  if (!s || !s.successors || !s.successors.length) return;
  ui.chosen = (ui.chosen + delta + s.successors.length) % s.successors.length;
  const buttons = $('actions').querySelectorAll('button');
  buttons.forEach((b, i) => b.classList.toggle('chosen', i === ui.chosen));
  buttons[ui.chosen].scrollIntoView({ block: 'nearest' });
}

function renderPath() {
  const list = $('path');
  list.replaceChildren();
  ui.path.forEach((p, i) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.textContent = `#${p.id} ${actionText(p.action, 'start')}`;
    a.addEventListener('click', () => go(p.id));
    li.append(a);
    if (i === ui.path.length - 1) li.className = 'here';
    list.append(li);
  });
}

function renderFacts(s) {
  const body = $('facts').querySelector('tbody');
  body.replaceChildren();
  for (const f of s.facts) {
    const tr = document.createElement('tr');
    if (f[3] === 'False') tr.className = 'false';
    for (const cell of f) {
      const td = document.createElement('td');
      td.textContent = cell;
      tr.append(td);
    }
    body.append(tr);
  }
  $('state-text').textContent = s.text;
}

// ------------------------------------------------------------------ the graphs

const spaceStyle = [
  { selector: 'node', style: {
    'shape': 'round-rectangle', 'background-color': '#fff', 'border-width': 1, 'border-color': '#8896a3',
    'label': 'data(label)', 'text-wrap': 'wrap', 'font-size': 11, 'text-valign': 'center',
    'width': 'data(w)', 'height': 'data(h)', 'font-family': 'ui-monospace, monospace' } },
  { selector: 'node.path', style: { 'background-color': '#e0ecff', 'border-color': '#2563eb' } },
  { selector: 'node.frontier', style: { 'border-style': 'dashed', 'border-color': '#2563eb', 'background-color': '#fff' } },
  { selector: 'node.expanded', style: { 'background-color': '#e0ecff' } },
  { selector: 'node.goal', style: { 'background-color': '#dcfce7', 'border-color': '#15803d', 'border-width': 3, 'border-style': 'double' } },
  { selector: 'node.current', style: { 'border-color': '#f59e0b', 'border-width': 4, 'border-style': 'solid' } },
  { selector: 'node.pictured', style: { 'background-image': 'data(img)', 'background-width': 'data(pw)', 'background-height': 'data(ph)',
    'background-position-y': 6, 'text-valign': 'center', 'text-margin-y': 33 } },
  { selector: 'edge', style: {
    'width': 1.5, 'line-color': '#a3adb8', 'target-arrow-color': '#a3adb8', 'target-arrow-shape': 'triangle',
    'curve-style': 'bezier', 'label': 'data(label)', 'font-size': 10, 'text-background-color': '#fff',
    'text-background-opacity': 0.85, 'text-background-padding': 1, 'color': '#44505c' } },
  { selector: 'edge.path', style: { 'line-color': '#2563eb', 'target-arrow-color': '#2563eb', 'width': 2.5 } },
  { selector: 'edge.skipped', style: { 'line-style': 'dotted' } },
];

const worldStyle = [
  { selector: 'node', style: {
    'background-color': 'data(colour)', 'label': 'data(label)', 'color': '#1d2329', 'font-size': 13,
    'text-valign': 'center', 'text-halign': 'center', 'width': 38, 'height': 38, 'border-width': 1, 'border-color': '#44505c',
    'text-outline-color': '#fff', 'text-outline-width': 2 } },
  { selector: ':parent', style: {
    'background-color': '#f3f4f6', 'background-opacity': 1, 'border-style': 'dashed', 'border-color': '#8896a3',
    'label': 'data(label)', 'text-valign': 'top', 'text-halign': 'center', 'font-size': 12, 'padding': 8, 'shape': 'round-rectangle' } },
  { selector: 'node.foreign', style: { 'shape': 'round-rectangle', 'width': 'data(w)', 'height': 26, 'font-size': 11 } },
  { selector: 'edge', style: {
    'width': 2, 'line-color': '#374151', 'target-arrow-color': '#374151', 'target-arrow-shape': 'triangle',
    'curve-style': 'bezier', 'label': 'data(label)', 'font-size': 11, 'text-background-color': '#fff',
    'text-background-opacity': 0.85, 'text-background-padding': 1 } },
  { selector: 'edge.false', style: { 'line-color': '#dc2626', 'target-arrow-color': '#dc2626', 'line-style': 'dashed', 'color': '#dc2626' } },
  { selector: 'edge.other', style: { 'line-color': '#9ca3af', 'target-arrow-color': '#9ca3af', 'line-style': 'dotted' } },
  { selector: 'edge.isa', style: { 'line-color': '#c4cad1', 'target-arrow-color': '#c4cad1', 'width': 1, 'font-size': 9, 'color': '#8896a3' } },
];

const cySpace = cytoscape({ container: $('space'), style: spaceStyle, minZoom: 0.05, maxZoom: 1.4 });
const cyWorld = cytoscape({ container: $('world'), style: worldStyle, minZoom: 0.05, maxZoom: 1.6 });
cySpace.on('tap', 'node', (e) => {
  const id = e.target.data('state');
  if (id !== null && id !== undefined) go(id);
});

function layout(cy, options) {
  cy.layout(Object.assign({ name: 'dagre', fit: true, padding: 16, nodeSep: 24, rankSep: 40, animate: false }, options)).run();
}

/** A state's box in the state space: its id and the action that reached it, and for states
 * that are not graphs (whose names are their values) the name. */
function spaceLabel(id, action, name) {
  const s = ui.cache.get(id);
  const what = action === undefined ? '' : actionText(action, 'start');
  if (name === undefined && s) name = s.name;
  const shown = !ui.graphs && name !== undefined ? '\n' + clip(name, 24) : '';
  return `#${id} ${what}${shown}`;
}

/** The width and height of a box around a label of monospace lines. */
function box(label) {
  const lines = label.split('\n');
  return { w: 14 + 6.7 * Math.max(...lines.map((l) => l.length)), h: 10 + 14 * lines.length };
}

function clip(text, n) {
  return text.length > n ? text.slice(0, n - 1) + '\u2026' : text;
}

/** The side of a state's picture in the state space (in the style below: the picture 6 pixels
 * from the top, the label's centre PICTURE / 2 + 1 below the node's, under the picture). */
const PICTURE = 64;

/** A state's node in the state space: its box, or, once the state was shown with an SVG
 * view, a box with its picture above the label (so that the layout makes room for both). */
function spaceNode(id, label, classes, known) {
  const svg = known && known.view && known.view.svg;
  const size = box(label);
  if (!svg) return { data: { id: 's' + id, state: id, label, ...size }, classes };
  const pic = pictureSize(svg);
  const data = { id: 's' + id, state: id, label, img: svgUrl(svg), pw: pic.w, ph: pic.h,
    w: Math.max(size.w, pic.w + 12), h: size.h + PICTURE };
  return { data, classes: classes + ' pictured' };
}

/** A picture's size in the state space: PICTURE high (or less, when that would make it wider
 * than twice that), keeping the proportions its <svg> tag gives (square when it gives none). */
function pictureSize(svg) {
  const tag = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(svg);
  const ratio = tag && Number(tag[2]) > 0 ? Number(tag[1]) / Number(tag[2]) : 1;
  const h = Math.min(PICTURE, 2 * PICTURE / ratio);
  return { w: h * ratio, h };
}

/** The path from the start shows at most this many states (the start, the rest nearest). */
const PATH_SHOWN = 8;

/** The path from the start (its middle left out when it is long), the current state's
 * successors, and the transitions known between them. */
function drawSpace(s) {
  const nodes = new Map();
  const path = ui.path.length > PATH_SHOWN ? [ui.path[0], ...ui.path.slice(ui.path.length - PATH_SHOWN + 1)] : ui.path;
  const onPath = new Set(path.map((p) => p.id));
  const names = new Map();
  path.forEach((p) => nodes.set(p.id, p.action));
  for (const t of s.successors || []) {
    if (!nodes.has(t.id)) nodes.set(t.id, t.action);
    names.set(t.id, t.name);
  }
  const elements = [];
  for (const [id, action] of nodes) {
    const known = ui.cache.get(id);
    const goal = known ? known.goal : (s.successors || []).some((t) => t.id === id && t.goal);
    const classes = [onPath.has(id) ? 'path' : '', goal ? 'goal' : '', id === s.id ? 'current' : ''].join(' ');
    const label = spaceLabel(id, action, names.get(id));
    elements.push(spaceNode(id, label, classes, known));
  }
  const edges = new Set();
  const edge = (from, to, action, classes) => {
    const key = `${from}>${to}>${action}`;
    if (edges.has(key) || !nodes.has(from) || !nodes.has(to)) return;
    edges.add(key);
    elements.push({ data: { id: 'e' + edges.size, source: 's' + from, target: 's' + to, label: actionText(action, '') }, classes });
  };
  for (let i = 1; i < path.length; i++) {
    const skipped = path[i - 1] === ui.path[0] && path[i] !== ui.path[1];
    if (skipped) {
      elements.push({ data: { id: 'skip', source: 's' + path[0].id, target: 's' + path[1].id,
        label: `\u2026 ${ui.path.length - PATH_SHOWN} more` }, classes: 'path skipped' });
    } else {
      edge(path[i - 1].id, path[i].id, path[i].action, 'path');
    }
  }
  for (const id of nodes.keys()) {
    const known = ui.cache.get(id);
    for (const t of (known && known.successors) || []) edge(id, t.id, t.action, '');
  }
  cySpace.elements().remove();
  cySpace.add(elements);
  layout(cySpace, { rankDir: 'TB' });
  $('space-legend').textContent = 'blue: the path from the start \u00b7 green: goals \u00b7 orange border: this state \u00b7 click a state to go there';
}

function classColour(name) {
  if (!ui.classColour.has(name)) ui.classColour.set(name, PALETTE[ui.classColour.size % PALETTE.length]);
  return ui.classColour.get(name);
}

/** The state's world: its nodes coloured by their `isa` class, other graphs' nodes grouped by
 * graph, True edges solid, False dashed red, others dotted with their value. */
function drawWorld(s) {
  const graph = s.nodes.length > 0;
  $('world').hidden = !graph;
  $('world-text').hidden = graph;
  if (!graph) {
    cyWorld.elements().remove();
    $('world-text').textContent = s.text;
    $('world-legend').textContent = 'this state is not a graph: it is shown as out prints it';
    return;
  }
  const showIsa = $('show-isa').checked;
  const classOf = new Map();
  for (const [src, rel, tgt, value] of s.facts) {
    if (rel === 'isa' && value === 'True' && !classOf.has(src)) classOf.set(src, tgt);
  }
  const elements = [];
  const local = new Set(s.nodes);
  for (const n of s.nodes) {
    const cls = classOf.get(n);
    elements.push({ data: { id: 'n:' + n, label: n, colour: cls ? classColour(cls) : '#e5e7eb' } });
  }
  const foreign = new Set();
  const target = (t) => {
    if (local.has(t)) return 'n:' + t;
    const dot = t.indexOf('.');
    const graph = dot > 0 ? t.slice(0, dot) : '?';
    if (!foreign.has(t)) {
      foreign.add(t);
      if (!elements.some((e) => e.data.id === 'g:' + graph)) elements.push({ data: { id: 'g:' + graph, label: graph } });
      const label = t.slice(dot + 1);
      elements.push({ data: { id: 'x:' + t, parent: 'g:' + graph, label, colour: classColour(t), w: box(label).w }, classes: 'foreign' });
    }
    return 'x:' + t;
  };
  s.facts.forEach(([src, rel, tgt, value], i) => {
    const to = target(tgt);
    if (rel === 'isa' && !showIsa) return;
    const kind = value === 'True' ? 'true' : value === 'False' ? 'false' : 'other';
    const label = kind === 'true' ? rel : kind === 'false' ? '!' + rel : `${rel} ${value}`;
    elements.push({ data: { id: 'f' + i, source: 'n:' + src, target: to, label, rel, value }, classes: kind + (rel === 'isa' ? ' isa' : '') });
  });
  cyWorld.elements().remove();
  cyWorld.add(elements);
  layoutWorld(s.nodes, classOf);
  const legend = $('world-legend');
  legend.replaceChildren();
  for (const [name, colour] of ui.classColour) {
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = colour;
    legend.append(sw, document.createTextNode(name));
  }
  legend.append(document.createTextNode('   \u2014 solid: True \u00b7 dashed red: False'));
}

/** The state's nodes on a circle, grouped by class (every state of a world has the same
 * nodes, so they keep their places from state to state and only the edges change); other
 * graphs' nodes in a column to the right. */
function layoutWorld(nodes, classOf) {
  const order = new Map(nodes.map((n, i) => [n, i]));
  const rank = (n) => { const c = classOf.get(n); return c ? [...ui.classColour.keys()].indexOf(c) : -1; };
  const local = cyWorld.nodes().filter((n) => n.id().startsWith('n:'));
  const r = Math.max(90, 22 * local.length);
  local.layout({ name: 'circle', boundingBox: { x1: 0, y1: 0, w: 2 * r, h: 2 * r }, startAngle: -Math.PI / 2,
    sort: (a, b) => (rank(a.data('label')) - rank(b.data('label'))) || (order.get(a.data('label')) - order.get(b.data('label'))),
    animate: false, fit: false }).run();
  let y = 0;
  cyWorld.nodes('.foreign').forEach((n) => {
    n.position({ x: 2 * r + 110, y });
    y += 40;
  });
  cyWorld.fit(undefined, 20);
}

// ------------------------------------------------------------------ the search replay

function setMode(mode) {
  ui.mode = mode;
  $('tab-explore').setAttribute('aria-selected', mode === 'explore');
  $('tab-replay').setAttribute('aria-selected', mode === 'replay');
  $('replay-bar').hidden = mode !== 'replay';
  stopPlaying();
  if (mode === 'explore') {
    const s = ui.cache.get(ui.current);
    if (s) drawSpace(s);
  } else if (ui.replay) {
    drawReplay();
  } else {
    cySpace.elements().remove();
    $('space-legend').textContent = 'choose an algorithm and run it: the tree it searched, step by step';
  }
}

async function runSearch() {
  const algorithm = $('algorithm').value;
  busy(true);
  $('replay-info').textContent = `running ${algorithm}\u2026`;
  try {
    ui.replay = await api('search?algorithm=' + encodeURIComponent(algorithm));
    ui.step = Math.min(1, ui.replay.steps.length);
    $('replay-step').max = ui.replay.steps.length;
    $('replay-controls').hidden = false;
    showError(null);
    drawReplay();
    await refreshStats();
  } catch (e) {
    showError(e);
    $('replay-info').textContent = '';
  } finally {
    busy(false);
  }
}

function fOf(algorithm, g, h) {
  if (h === null) return g;
  // how f is computed comes from the algorithm table (/api/stats: f_of)
  const f = ui.stats.f_of[algorithm];
  if (f === 'h') return h;
  return f === 'g+h' ? g + h : g;
}

/** The search tree after `ui.step` expansions: states met (dashed: the frontier, filled:
 * expanded, orange: the one expanded last), with g, h and f on each. */
function drawReplay() {
  const r = ui.replay;
  const k = ui.step;
  const last = k === r.steps.length;
  const met = last ? r.states.length : r.steps[k].met;
  const shown = Math.min(met, REPLAY_NODES);
  const expanded = new Set(r.steps.slice(0, k).map((st) => st.state));
  const current = k > 0 ? r.steps[k - 1].state : null;
  const onPath = new Set(last ? r.path : []);
  const elements = [];
  for (let i = 0; i < shown; i++) {
    const st = r.states[i];
    const numbers = st.h === null ? `g=${num(st.g)}` : `g=${num(st.g)} h=${num(st.h)} f=${num(fOf(r.algorithm, st.g, st.h))}`;
    const name = spaceLabel(st.id, st.action, st.name);
    const classes = [expanded.has(i) ? 'expanded' : 'frontier', i === current ? 'current' : '',
      last && st.id === r.goal ? 'goal' : '', onPath.has(st.id) ? 'path' : ''].join(' ');
    const label = `${name}\n${numbers}`;
    elements.push({ data: { id: 'r' + i, state: st.id, label, ...box(label) }, classes });
    if (st.parent_state !== null && st.parent_state < shown) {
      elements.push({ data: { id: 're' + i, source: 'r' + st.parent_state, target: 'r' + i, label: actionText(st.action, '') },
        classes: onPath.has(st.id) && last ? 'path' : '' });
    }
  }
  cySpace.elements().remove();
  cySpace.add(elements);
  layout(cySpace, { rankDir: 'TB', nodeSep: 12, rankSep: 36 });
  $('replay-step').value = k;
  const frontier = [];
  for (let i = 0; i < met; i++) if (!expanded.has(i)) frontier.push(i);
  const fr = frontier.slice(0, 12).map((i) => {
    const st = r.states[i];
    return `#${st.id}` + (st.h === null ? ` g=${num(st.g)}` : ` f=${num(fOf(r.algorithm, st.g, st.h))}`);
  });
  let info = `${r.algorithm}, step ${k} of ${r.steps.length}`;
  if (current !== null) {
    const e = r.steps[k - 1];
    info += `: expanded #${e.id} (g=${num(e.g)}${e.h === null ? '' : ` h=${num(e.h)}`} f=${num(e.f)})`;
  }
  info += ` \u00b7 expanded ${expanded.size} \u00b7 frontier ${frontier.length}` + (fr.length ? `: ${fr.join(', ')}${frontier.length > 12 ? ', \u2026' : ''}` : '');
  if (last) {
    info += r.found ? ` \u00b7 found goal #${r.goal}, cost ${num(r.cost)}, ${r.generated} generated` : ` \u00b7 no goal (${r.reason})`;
  }
  if (met > shown) info += ` \u00b7 drawing the first ${shown} of ${met} states`;
  $('replay-info').textContent = info;
  $('space-legend').textContent = 'dashed: the frontier \u00b7 filled: expanded \u00b7 orange: expanded last \u00b7 green: the goal \u00b7 click a state to see it';
  if (current !== null && r.states[current].id !== null && r.states[current].id !== ui.current) go(r.states[current].id, 'replay');
}

function replayStep(delta) {
  if (!ui.replay) return;
  const k = Math.max(0, Math.min(ui.replay.steps.length, ui.step + delta));
  if (k !== ui.step) {
    ui.step = k;
    drawReplay();
  }
}

function stopPlaying() {
  clearInterval(ui.timer);
  ui.timer = null;
  $('replay-play').textContent = 'play';
}

function togglePlay() {
  if (!ui.replay) return;
  if (ui.timer) return stopPlaying();
  if (ui.step >= ui.replay.steps.length) ui.step = 0;
  $('replay-play').textContent = 'pause';
  ui.timer = setInterval(() => {
    if (ui.step >= ui.replay.steps.length) return stopPlaying();
    replayStep(1);
  }, 700);
}

// ------------------------------------------------------------------ wiring

function wire() {
  $('back').addEventListener('click', goBack);
  $('forward').addEventListener('click', goForward);
  $('home').addEventListener('click', () => go(0));
  $('parent').addEventListener('click', goParent);
  $('goto').addEventListener('submit', (e) => {
    e.preventDefault();
    const id = parseInt($('goto-id').value, 10);
    if (id >= 0) go(id);
    $('goto-id').blur();
  });
  $('help-button').addEventListener('click', () => $('help').showModal());
  $('tab-explore').addEventListener('click', () => setMode('explore'));
  $('tab-replay').addEventListener('click', () => setMode('replay'));
  $('run').addEventListener('click', runSearch);
  $('replay-first').addEventListener('click', () => replayStep(-Infinity));
  $('replay-prev').addEventListener('click', () => replayStep(-1));
  $('replay-next').addEventListener('click', () => replayStep(1));
  $('replay-last').addEventListener('click', () => replayStep(Infinity));
  $('replay-play').addEventListener('click', togglePlay);
  $('replay-step').addEventListener('input', (e) => { ui.step = +e.target.value; drawReplay(); });
  $('show-isa').addEventListener('change', () => { const s = ui.cache.get(ui.current); if (s) drawWorld(s); });
  document.addEventListener('keydown', onKey);
  for (const [cy, box] of [[cySpace, $('space')], [cyWorld, $('world')]]) {
    new ResizeObserver(() => { cy.resize(); cy.fit(undefined, 16); }).observe(box);
  }
}

function onKey(e) {
  const typing = ['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName) && e.target.type !== 'checkbox' && e.target.type !== 'range';
  if (typing || e.ctrlKey || e.metaKey || e.altKey || $('help').open) return;
  const onButton = e.target.tagName === 'BUTTON';
  const keys = {
    ArrowLeft: goBack, ArrowRight: goForward, ArrowUp: () => moveChoice(-1), ArrowDown: () => moveChoice(1),
    Home: () => go(0), p: goParent, g: () => $('goto-id').focus(), '?': () => $('help').showModal(),
    r: () => setMode(ui.mode === 'replay' ? 'explore' : 'replay'),
    '[': () => replayStep(-1), ']': () => replayStep(1),
  };
  if (e.key >= '1' && e.key <= '9') {
    takeAction(+e.key - 1);
  } else if (e.key === 'Enter' && !onButton) {
    takeAction(ui.chosen);
  } else if (e.key === ' ' && ui.mode === 'replay' && !onButton) {
    togglePlay();
  } else if (keys[e.key]) {
    keys[e.key]();
  } else {
    return;
  }
  e.preventDefault();
}

async function start() {
  wire();
  try {
    await refreshStats();
  } catch (e) {
    showError(e);
    return;
  }
  const s = ui.stats;
  $('file').textContent = `${s.file} \u2014 ${s.start}, ${s.next}, ${s.goal_test}` + (s.h ? `, ${s.h}` : '');
  document.title = `ds explore ${s.file}`;
  for (const a of s.algorithms) {
    const o = document.createElement('option');
    o.value = o.textContent = a;
    $('algorithm').append(o);
  }
  if (s.algorithms.includes('astar')) $('algorithm').value = 'astar';
  ui.graphs = (await getState(0)).nodes.length > 0;
  const asked = /state=(\d+)/.exec(location.hash);
  await go(asked ? +asked[1] : 0, 'replay');
}

// For tests and the curious: the graphs and the page's state.
window.dsExplorer = { ui, space: cySpace, world: cyWorld, ready: start() };
