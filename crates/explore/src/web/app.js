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
  replay: null,          // /api/search's answer (the first of replays)
  replays: [],           // the searches replayed side by side, stepping together
  step: 0,               // expansions of the replay shown
  colourBy: '',          // '', 'h' or 'exact' (h against the true distance)
  check: null,           // /api/check's answer, once asked
  timer: null,
  classColour: new Map(),
};

// ------------------------------------------------------------------ the API

/** Every request of the API goes through here. `ds explore`'s server answers it over HTTP; a
 * page hosting this one (the playground answers from its worker) sets `dsExplorerTransport` on
 * this window, or on its own when it frames this page: a function of the path after /api/
 * that resolves to {ok, status, body}, body being the JSON the server would send. */
function transport() {
  try {
    return window.dsExplorerTransport || (window.parent !== window && window.parent.dsExplorerTransport) || fetchApi;
  } catch {
    return fetchApi; // framed by a page of another origin, which cannot answer
  }
}

async function fetchApi(path) {
  const response = await fetch('/api/' + path);
  const body = await response.json().catch(() => ({ error: response.statusText }));
  return { ok: response.ok, status: response.status, body };
}

async function api(path) {
  const { ok, status, body } = await transport()(path);
  if (!ok) throw new Error(body.error || `the API answered ${status}`);
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
  { selector: 'node[colour]', style: { 'background-color': 'data(colour)' } },
  { selector: 'node.reopened', style: { 'border-color': '#7c3aed', 'border-width': 3 } },
  { selector: 'node.inadmissible', style: { 'border-color': '#dc2626', 'border-width': 4, 'border-style': 'solid' } },
  { selector: 'node.current', style: { 'border-color': '#f59e0b', 'border-width': 4, 'border-style': 'solid' } },
  { selector: 'node.pictured', style: { 'background-image': 'data(img)', 'background-width': 'data(pw)', 'background-height': 'data(ph)',
    'background-position-y': 6, 'text-valign': 'center', 'text-margin-y': 33 } },
  { selector: 'edge', style: {
    'width': 1.5, 'line-color': '#a3adb8', 'target-arrow-color': '#a3adb8', 'target-arrow-shape': 'triangle',
    'curve-style': 'bezier', 'label': 'data(label)', 'font-size': 10, 'text-background-color': '#fff',
    'text-background-opacity': 0.85, 'text-background-padding': 1, 'color': '#44505c' } },
  { selector: 'edge.path', style: { 'line-color': '#2563eb', 'target-arrow-color': '#2563eb', 'width': 2.5 } },
  { selector: 'edge.skipped', style: { 'line-style': 'dotted' } },
  { selector: 'edge.again', style: { 'line-style': 'dotted', 'line-color': '#9ca3af', 'target-arrow-color': '#9ca3af', 'color': '#6b7280' } },
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
  const hval = known ? known.h : null;
  if (!svg) return { data: { id: 's' + id, state: id, hval, label, ...size }, classes };
  const pic = pictureSize(svg);
  const data = { id: 's' + id, state: id, hval, label, img: svgUrl(svg), pw: pic.w, ph: pic.h,
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
  paint(cySpace);
  layout(cySpace, { rankDir: 'TB' });
  orderChildren(cySpace, s, onPath);
  $('space-legend').replaceChildren('blue: the path from the start \u00b7 green: goals \u00b7 orange border: this state \u00b7 click a state to go there', colourLegend());
}

/** Places the current state's successors below it left to right in the order of its actions
 * list (the layout orders them to cross fewer edges), where they stand: those on the path stay. */
function orderChildren(cy, s, onPath) {
  const ids = [...new Set((s.successors || []).map((t) => t.id))].filter((id) => !onPath.has(id));
  const kids = ids.map((id) => cy.getElementById('s' + id)).filter((n) => n.nonempty());
  if (kids.length < 2) return;
  const width = (n) => n.data('w') || n.width();
  let x = Math.min(...kids.map((n) => n.position('x') - width(n) / 2));
  const y = Math.max(...kids.map((n) => n.position('y')));
  for (const n of kids) {
    n.position({ x: x + width(n) / 2, y });
    x += width(n) + 24;
  }
  cy.fit(undefined, 16);
}

function classColour(name) {
  if (!ui.classColour.has(name)) ui.classColour.set(name, PALETTE[ui.classColour.size % PALETTE.length]);
  return ui.classColour.get(name);
}

/** The state's world: its nodes coloured by their `isa` class, other graphs' nodes grouped by
 * graph, True edges solid, False dashed red, others dotted with their value. */
function drawWorld(s) {
  const graph = s.nodes.length > 0;
  document.body.classList.toggle('no-world', !graph);
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

/** The tree of a second algorithm replayed beside the first, stepping with it. */
const cySpace2 = cytoscape({ container: $('space-1'), style: spaceStyle, minZoom: 0.05, maxZoom: 1.4 });
cySpace2.on('tap', 'node', (e) => {
  const id = e.target.data('state');
  if (id !== null && id !== undefined) go(id);
});

// ------------------------------------------------------------------ the size control

/** A graph style with every font size times `scale`. */
function scaledStyle(style, scale) {
  return style.map(({ selector, style: s }) =>
    ({ selector, style: 'font-size' in s ? { ...s, 'font-size': s['font-size'] * scale } : s }));
}

/** Sets the size of the graphs' text and of the tables (their text and boards: CSS's
 * --scale), for a room at the back of a lecture hall; remembered for the next visit. */
function setSize(scale) {
  document.body.style.setProperty('--scale', String(scale));
  cySpace.style(scaledStyle(spaceStyle, scale));
  cySpace2.style(scaledStyle(spaceStyle, scale));
  cyWorld.style(scaledStyle(worldStyle, scale));
  try { localStorage.setItem('ds-explore-size', String(scale)); } catch { /* storage off: not kept */ }
}
$('size').addEventListener('change', () => setSize(+$('size').value));
{
  let saved = null;
  try { saved = localStorage.getItem('ds-explore-size'); } catch { /* storage off */ }
  if (saved && [...$('size').options].some((o) => o.value === saved)) {
    $('size').value = saved;
    setSize(+saved);
  }
}
/** The open and closed tables show at most this many rows each. */
const LIST_ROWS = 12;

function setMode(mode) {
  ui.mode = mode;
  $('tab-explore').setAttribute('aria-selected', mode === 'explore');
  $('tab-replay').setAttribute('aria-selected', mode === 'replay');
  $('replay-bar').hidden = mode !== 'replay';
  showColumns();
  stopPlaying();
  if (mode === 'explore') {
    const s = ui.cache.get(ui.current);
    if (s) drawSpace(s);
  } else if (ui.replays.length) {
    drawReplay();
  } else {
    cySpace.elements().remove();
    $('space-legend').textContent = 'choose an algorithm and run it: the tree it searched, step by step';
  }
}

/** One column (the tree) when exploring; in a replay, each search's tree with its tables. */
function showColumns() {
  const replaying = ui.mode === 'replay' && ui.replays.length > 0;
  document.body.classList.toggle('comparing', replaying && ui.replays.length > 1);
  $('col-1').hidden = !(replaying && ui.replays.length > 1);
  $('lists-0').hidden = !replaying;
  $('replay-info').hidden = ui.mode !== 'replay';
  for (const cy of [cySpace, cySpace2]) cy.resize();
}

async function runSearch() {
  const algorithms = [$('algorithm').value, $('algorithm-2').value].filter(Boolean);
  busy(true);
  $('replay-info').textContent = `running ${algorithms.join(' and ')}\u2026`;
  try {
    const replays = [];
    for (const a of algorithms) replays.push(await api('search?algorithm=' + encodeURIComponent(a)));
    ui.replays = replays;
    ui.replay = replays[0];
    const most = longest();
    ui.step = Math.min(1, most);
    $('replay-step').max = most;
    $('replay-controls').hidden = false;
    showError(null);
    showColumns();
    drawReplay();
    await refreshStats();
  } catch (e) {
    showError(e);
    $('replay-info').textContent = '';
  } finally {
    busy(false);
  }
}

/** The most steps of the searches replayed. */
function longest() {
  return Math.max(0, ...ui.replays.map(stepCount));
}

/** The event where a search that tests states when it takes them out (A*, UCS) takes out its
 * goal, or -1: the goal first waits in the open list, a step of its own, then this event is
 * the last step. */
function goalOut(r) {
  const n = r.events.length - 1;
  return r.goal_test === 'expanded' && n >= 0 && r.events[n].kind === 'goal' ? n : -1;
}

/** A search's steps: its expansions, and taking out its goal when that is a step of its own. */
function stepCount(r) {
  return r.steps.length + (goalOut(r) >= 0 ? 1 : 0);
}

/** The state search `r` takes out at step `k` (from 1): the one expanded, or the goal. */
function stepState(r, k) {
  return k <= r.steps.length ? r.steps[k - 1].state : r.events[goalOut(r)].state;
}

/** What search `r` had done after `k` expansions, from its events (those before its next
 * expansion; all of them after the last): the open list in the order the search takes
 * states out (each state's latest entry, by rank), the closed list in expansion order, each
 * state's latest entry, the states met again (with how often), reopened and pruned, the
 * duplicate events, and the goal found. States are indices of `r.states`. */
function replayAt(r, k) {
  const out = goalOut(r);
  const end = k < r.steps.length ? r.steps[k].event : k === r.steps.length && out >= 0 ? out : r.events.length;
  const at = { open: new Map(), closed: new Map(), entry: new Map(), again: new Map(), reopened: new Set(),
    pruned: new Set(), duplicates: [], goal: null };
  const close = (e) => { at.open.delete(e.state); at.closed.delete(e.state); at.closed.set(e.state, e); };
  for (let n = 0; n < end; n++) {
    const e = r.events[n];
    if (e.kind === 'push' || e.kind === 'reopen') {
      if (e.kind === 'reopen') at.reopened.add(e.state);
      at.closed.delete(e.state);
      at.open.set(e.state, e);
      at.entry.set(e.state, e);
    } else if (e.kind === 'expand') {
      close(e);
    } else if (e.kind === 'goal') {
      at.goal = e.state;
      if (r.goal_test === 'expanded') close(e);
    } else if (e.kind === 'duplicate') {
      at.again.set(e.state, (at.again.get(e.state) || 0) + 1);
      at.duplicates.push(e);
    } else if (e.kind === 'prune') {
      at.pruned.add(e.state);
    }
  }
  return { ...at, open: [...at.open.values()].sort((a, b) => a.rank - b.rank), closed: [...at.closed.values()], openSet: at.open, closedSet: at.closed };
}

/** Every replayed search after `ui.step` steps (each stops at its last). */
function drawReplay() {
  ui.replays.forEach((r, i) => drawOne(r, Math.min(ui.step, stepCount(r)), i));
  $('replay-step').value = ui.step;
  const legend = 'dashed: the open list \u00b7 filled: closed (expanded) \u00b7 orange: expanded last \u00b7 green: the goal \u00b7 '
    + '\u21ba reopened \u00b7 \u00d7n met n times (dotted: met again) \u00b7 click a state to see it';
  $('space-legend').replaceChildren(legend, colourLegend());
  const r = ui.replays[0];
  const k = Math.min(ui.step, stepCount(r));
  const current = k > 0 ? r.states[stepState(r, k)].id : null;
  if (current !== null && current !== ui.current) go(current, 'replay');
}

/** Search `r` after `k` expansions in column `i`: its tree, its tables and what it did. */
function drawOne(r, k, i) {
  const at = replayAt(r, k);
  const last = k === stepCount(r);
  const cy = i === 0 ? cySpace : cySpace2;
  const elements = replayTree(r, k, at);
  cy.elements().remove();
  cy.add(elements);
  paint(cy);
  layout(cy, { rankDir: 'TB', nodeSep: 12, rankSep: 36 });
  renderLists($('lists-' + i), r, at);
  let info = `${r.algorithm}, step ${k} of ${stepCount(r)}`;
  if (k > r.steps.length) {
    const e = r.events[goalOut(r)];
    info += `: takes goal #${e.id} out of the open list (g=${num(e.g)}${e.h === null ? '' : ` h=${num(e.h)}`} f=${num(e.f)})`;
  } else if (k > 0) {
    const e = r.steps[k - 1];
    info += `: expanded #${e.id} (g=${num(e.g)}${e.h === null ? '' : ` h=${num(e.h)}`} f=${num(e.f)})`;
  }
  if (k === r.steps.length && goalOut(r) >= 0) info += ` \u00b7 goal #${r.goal} waits in the open list`;
  info += ` \u00b7 open ${at.open.length} \u00b7 closed ${at.closed.length}`;
  if (last) {
    info += r.found ? ` \u00b7 found goal #${r.goal}, cost ${num(r.cost)}, ${r.generated} generated` : ` \u00b7 no goal (${r.reason})`;
    if (ui.replays.length > 1) info += ' \u00b7 finished';
  }
  if (at.entry.size > REPLAY_NODES) info += ` \u00b7 drawing the first ${REPLAY_NODES} of ${at.entry.size} states`;
  const box = $(i === 0 ? 'replay-info' : 'replay-info-1');
  box.textContent = info;
  box.classList.toggle('finished', last);
}

/** The tree of the states met after `k` expansions, each under the state that last put it
 * into the open list, with g, h and f; dotted edges where a state was met again. */
function replayTree(r, k, at) {
  const current = k > 0 ? stepState(r, k) : null;
  const last = k === stepCount(r);
  const onPath = new Set(last ? r.path : []);
  const elements = [];
  const drawn = (s) => s < REPLAY_NODES && at.entry.has(s);
  for (const [s, e] of at.entry) {
    if (s >= REPLAY_NODES) continue;
    const st = r.states[s];
    const numbers = e.h === null ? `g=${num(e.g)}` : `g=${num(e.g)} h=${num(e.h)} f=${num(e.f)}`;
    const label = `${spaceLabel(st.id, st.action, st.name)}${marks(at, s)}\n${numbers}`;
    const classes = [at.closedSet.has(s) ? 'expanded' : at.openSet.has(s) ? 'frontier' : '', s === current ? 'current' : '',
      at.goal === s ? 'goal' : '', last && onPath.has(st.id) ? 'path' : '', at.reopened.has(s) ? 'reopened' : '',
      at.again.has(s) ? 'again' : ''].join(' ');
    elements.push({ data: { id: 'r' + s, state: st.id, hval: e.h, label, ...box(label) }, classes });
    if (e.parent !== null && drawn(e.parent)) {
      const action = e.parent === st.parent_state ? actionText(st.action, '') : '';
      elements.push({ data: { id: 're' + s, source: 'r' + e.parent, target: 'r' + s, label: action },
        classes: last && onPath.has(st.id) ? 'path' : '' });
    }
  }
  const seen = new Set();
  for (const e of at.duplicates) {
    const key = `${e.parent}>${e.state}`;
    if (seen.has(key) || !drawn(e.parent) || !drawn(e.state)) continue;
    seen.add(key);
    elements.push({ data: { id: 'rd' + seen.size, source: 'r' + e.parent, target: 'r' + e.state, label: 'again' }, classes: 'again' });
  }
  return elements;
}

/** The marks of state `s` after a label: reopened, met again n times. */
function marks(at, s) {
  return (at.reopened.has(s) ? ' \u21ba' : '') + (at.again.has(s) ? ` \u00d7${at.again.get(s) + 1}` : '');
}

/** The open list (in the order the search takes states out) and the closed list (in the order
 * the states were expanded) beside a replay's tree. */
function renderLists(box, r, at) {
  const informed = r.events.some((e) => e.h !== null);
  box.replaceChildren(
    listTable('open', 'next first', r, at, at.open.slice(0, LIST_ROWS), at.open.length - LIST_ROWS, informed),
    listTable('closed', 'in expansion order', r, at, at.closed.slice(-LIST_ROWS), at.closed.length - LIST_ROWS, false));
}

function listTable(kind, order, r, at, entries, more, informed) {
  const table = document.createElement('table');
  table.className = 'list ' + kind;
  const total = entries.length + Math.max(0, more);
  table.createCaption().textContent = `${kind} (${total}), ${order}`;
  const heads = ['#', 'state', 'g', ...(informed ? ['h', 'f'] : [])];
  table.createTHead().insertRow().append(...heads.map((h) => Object.assign(document.createElement('th'), { textContent: h })));
  const body = table.createTBody();
  const row = (cells) => { const tr = body.insertRow(); cells.forEach((c) => tr.insertCell().append(c)); return tr; };
  if (more > 0 && kind === 'closed') row([`\u2026 ${more} earlier`]).className = 'more';
  for (const e of entries) {
    const st = r.states[e.state];
    const tr = row([`#${st.id}`, stateCell(st), num(e.g), ...(informed ? [e.h === null ? '' : num(e.h), num(e.f)] : [])]);
    tr.dataset.id = st.id;
    tr.dataset.name = st.name;
    tr.cells[1].append(marks(at, e.state));
    tr.className = [at.goal === e.state ? 'goal' : '', at.reopened.has(e.state) ? 'reopened' : '',
      at.again.has(e.state) ? 'again' : ''].join(' ').trim();
    tr.addEventListener('click', () => go(st.id));
  }
  if (more > 0 && kind === 'open') row([`\u2026 ${more} more`]).className = 'more';
  if (!total) row([kind === 'open' ? 'empty' : 'none yet']).className = 'more';
  return table;
}

/** A state in a table: small, as its view draws it when there is a view (fetched once), else
 * its name. */
function stateCell(st) {
  const cell = document.createElement('span');
  cell.className = 'cell-state';
  cell.textContent = clip(st.name, 18);
  cell.title = st.name;
  if (ui.stats && ui.stats.view) {
    getState(st.id).then((s) => {
      if (!s.view || s.view.error !== undefined || s.view.graph) return;
      if (s.view.svg !== undefined) {
        const img = document.createElement('img');
        img.src = svgUrl(s.view.svg);
        img.alt = st.name;
        cell.replaceChildren(img);
      } else {
        const pre = document.createElement('pre');
        pre.textContent = s.view.text;
        cell.replaceChildren(pre);
      }
    }).catch(() => {});
  }
  return cell;
}

function replayStep(delta) {
  if (!ui.replays.length) return;
  const k = Math.max(0, Math.min(longest(), ui.step + delta));
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
  if (!ui.replays.length) return;
  if (ui.timer) return stopPlaying();
  if (ui.step >= longest()) ui.step = 0;
  $('replay-play').textContent = 'pause';
  ui.timer = setInterval(() => {
    if (ui.step >= longest()) return stopPlaying();
    replayStep(1);
  }, 700);
}

// ------------------------------------------------------------------ colouring by h

/** The colours of the states drawn in `cy`, by h or by h against the true distance
 * (`/api/check`), as the colour menu says; the inadmissible ones get a red border. */
function paint(cy) {
  cy.nodes().forEach((n) => {
    const c = stateColour(n.data('state'), n.data('hval'));
    if (c.colour) n.data('colour', c.colour); else n.removeData('colour');
    n.toggleClass('inadmissible', !!c.inadmissible);
  });
}

/** The largest h known, for the scale. */
function largestH() {
  if (ui.check) return Math.max(0, ...ui.check.h);
  let most = 0;
  for (const r of ui.replays) for (const st of r.states) if (st.h !== null) most = Math.max(most, st.h);
  for (const s of ui.cache.values()) if (s.h !== null) most = Math.max(most, s.h);
  return most;
}

function stateColour(id, h) {
  if (ui.colourBy === 'h' && h !== null && h !== undefined) {
    const t = h / (largestH() || 1);
    return { colour: `hsl(215, 85%, ${Math.round(96 - 42 * t)}%)` };
  }
  if (ui.colourBy === 'exact' && ui.check && id !== null && id !== undefined && id < ui.check.exact.length) {
    const d = ui.check.exact[id];
    const hv = ui.check.h[id];
    if (d === null) return { colour: '#d1d5db' };
    if (hv > d + 1e-9 * Math.max(1, Math.abs(d))) return { colour: '#fca5a5', inadmissible: true };
    const t = d > 0 ? hv / d : 1;
    return { colour: `hsl(140, 60%, ${Math.round(95 - 40 * t)}%)` };
  }
  return {};
}

/** What the colours mean, for the legend under the tree. */
function colourLegend() {
  const span = document.createElement('span');
  span.id = 'colour-legend';
  if (ui.colourBy === 'h') {
    span.textContent = ` \u2014 colour: h, from pale (0) to dark blue (${num(largestH())})`;
  } else if (ui.colourBy === 'exact' && ui.check) {
    const c = ui.check;
    const verdict = `${c.admissible ? 'admissible' : 'not admissible'}, ${c.consistent ? 'consistent' : 'not consistent'}`
      + (c.worst === null ? '' : `, worst #${c.worst} (h over the true distance by ${num(c.max_overestimate)})`)
      + (c.complete ? '' : `, over the ${c.exact.length} states known (--max-states)`);
    span.textContent = ` \u2014 colour: green, darker as h nears the true distance \u00b7 red: h above it (inadmissible) \u00b7 grey: no goal reachable \u2014 h is ${verdict}`;
  }
  return span;
}

async function setColour(by) {
  ui.colourBy = by;
  if (by === 'exact' && !ui.check) {
    busy(true);
    try {
      ui.check = await api('check');
      showError(null);
    } catch (e) {
      showError(e);
      ui.colourBy = '';
      $('colour-by').value = '';
    } finally {
      busy(false);
    }
  }
  if (ui.mode === 'replay' && ui.replays.length) {
    drawReplay();
  } else {
    const s = ui.cache.get(ui.current);
    if (s) drawSpace(s);
  }
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
  $('colour-by').addEventListener('change', (e) => setColour(e.target.value));
  // A #state=N typed into the address bar (or a link to one) shows that state.
  window.addEventListener('hashchange', () => {
    const asked = /state=(\d+)/.exec(location.hash);
    if (asked && +asked[1] !== ui.current) go(+asked[1]);
  });
  $('show-isa').addEventListener('change', () => { const s = ui.cache.get(ui.current); if (s) drawWorld(s); });
  document.addEventListener('keydown', onKey);
  for (const [cy, box] of [[cySpace, $('space')], [cySpace2, $('space-1')], [cyWorld, $('world')]]) {
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
  $('file').textContent = `${s.file} \u2014 ${s.start}, ${s.next}, ${s.goal_test}` + (s.h ? `, ${s.h}` : '')
    + (s.symmetry ? `, symmetry ${s.symmetry}` : '');
  document.title = `ds explore ${s.file}`;
  for (const a of s.algorithms) {
    for (const menu of [$('algorithm'), $('algorithm-2')]) {
      const o = document.createElement('option');
      o.value = o.textContent = a;
      menu.append(o);
    }
  }
  $('colour-box').hidden = !s.h;
  if (s.algorithms.includes('astar')) $('algorithm').value = 'astar';
  ui.graphs = (await getState(0)).nodes.length > 0;
  const asked = /state=(\d+)/.exec(location.hash);
  await go(asked ? +asked[1] : 0, 'replay');
}

// For tests and the curious: the graphs and the page's state.
window.dsExplorer = { ui, space: cySpace, space2: cySpace2, world: cyWorld, ready: start() };
