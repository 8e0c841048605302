// Graphs a script prints as Graphviz DOT (`out G.dot()`, eight.ds --dot -) or writes to a .dot
// file, drawn in the page with the explorer's graph library (cytoscape.js with the dagre layout,
// crates/explore/src/web/vendor/, copied into target/web/explorer/ by `cargo xtask web`: shared, not
// a copy in the sources). Only the part of DOT that ds and its scripts write is read: nodes and
// edges with attributes; anything else (subgraphs, ports, HTML labels) leaves the text alone.

/** At most this many nodes are drawn: a bigger graph stays text. */
const MAX_NODES = 600;

/** The tokens of a DOT text: quoted strings, words, `->`/`--` and single symbols. */
function tokens(text) {
  const out = [];
  const re = /\s+|\/\/[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/|"((?:[^"\\]|\\[\s\S])*)"|(->|--)|([A-Za-z0-9_.\u0080-\uffff]+)|([{}[\]=,;])/y;
  while (re.lastIndex < text.length) {
    const at = re.lastIndex;
    const m = re.exec(text);
    if (!m) return null;
    if (m[1] !== undefined) out.push({ word: m[1].replace(/\\n/g, '\n').replace(/\\(.)/g, '$1'), quoted: true });
    else if (m[2] || m[3] || m[4]) out.push({ word: m[2] || m[3] || m[4] });
    if (re.lastIndex === at) return null;
  }
  return out;
}

/** The nodes and edges of a DOT text, or null when it is not the simple DOT this reads. */
export function parseDot(text) {
  const t = tokens(text);
  if (!t) return null;
  let i = 0;
  const peek = () => t[i]?.word;
  const isWord = () => t[i] && (t[i].quoted || !/^(->|--|[{}[\]=,;])$/.test(t[i].word));
  if (peek() === 'strict') i++;
  if (peek() !== 'digraph' && peek() !== 'graph') return null;
  const directed = t[i++].word === 'digraph';
  if (peek() !== '{') i++;
  if (t[i++]?.word !== '{') return null;
  const nodes = new Map();
  const edges = [];
  const node = (id) => nodes.get(id) || nodes.set(id, { id, label: id }).get(id);
  const attrs = () => {
    const a = {};
    while (peek() === '[') {
      for (i++; peek() !== ']'; ) {
        if (!isWord()) return null;
        const key = t[i++].word;
        if (peek() === '=') {
          i++;
          a[key] = t[i++]?.word;
        }
        if (peek() === ',' || peek() === ';') i++;
        if (i >= t.length) return null;
      }
      i++;
    }
    return a;
  };
  while (peek() !== '}') {
    if (i >= t.length || !isWord()) return null;
    const first = t[i++].word;
    if (first === 'subgraph') return null;
    if (['node', 'edge', 'graph'].includes(first) && peek() === '[') {
      if (!attrs()) return null;
    } else if (peek() === '=') {
      i += 2; // a graph attribute
    } else {
      const chain = [first];
      while (peek() === '->' || peek() === '--') {
        i++;
        if (!isWord()) return null;
        chain.push(t[i++].word);
      }
      const a = attrs();
      if (!a) return null;
      if (chain.length === 1) Object.assign(node(first), a, { id: first, label: a.label ?? node(first).label });
      for (let k = 0; k + 1 < chain.length; k++) {
        node(chain[k]);
        node(chain[k + 1]);
        edges.push({ source: chain[k], target: chain[k + 1], ...a });
      }
    }
    if (peek() === ';' || peek() === ',') i++;
  }
  return { directed, nodes: [...nodes.values()], edges };
}

let library = null;

/** Loads the explorer's cytoscape and dagre once (they are the explorer's script files). */
function loadLibrary() {
  const script = (src) => new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.append(s);
  });
  library ??= script('explorer/vendor/cytoscape.min.js')
    .then(() => script('explorer/vendor/cytoscape-dagre.min.js'))
    .then(() => window.cytoscape.use(window.cytoscapeDagre));
  return library;
}

/** The font of node labels (px): drawings are scaled to their box, so that this is what a
 * reader sees when the graph fits its box at zoom 1. */
const NODE_FONT = 14;

/** A node's box for its label in the monospace font (lines of characters). */
function size(label) {
  const lines = String(label).split('\n');
  return { w: Math.max(...lines.map((l) => l.length)) * NODE_FONT * 0.62 + 20, h: lines.length * NODE_FONT * 1.25 + 14 };
}

const COLOURS = /^(#[0-9a-fA-F]{3,8}|[a-z]+)$/;

/** Draws a parsed graph into `box` (a figure's div); says how many nodes and edges it drew in
 * `box.dataset`. */
export async function drawGraph(box, graph) {
  if (graph.nodes.length > MAX_NODES) {
    box.textContent = `(${graph.nodes.length} nodes: too many to draw here; the DOT text is below)`;
    box.classList.add('too-big');
    return;
  }
  await loadLibrary();
  const colour = (c, fallback) => (c && COLOURS.test(c) ? c : fallback);
  const elements = [
    ...graph.nodes.map((n) => ({ data: { id: 'n' + n.id, label: n.label, colour: colour(n.color, '#4e79a7'), ...size(n.label) } })),
    ...graph.edges.map((e, k) => ({
      data: { id: 'e' + k, source: 'n' + e.source, target: 'n' + e.target, label: e.label || '', colour: colour(e.color, '#888'),
        line: e.style === 'dashed' || e.style === 'dotted' ? e.style : 'solid' },
    })),
  ];
  // Wide gaps between nodes and ranks leave each edge's label room of its own (labels ran into
  // each other, "want" and "on" read "wanton", issue 55); the drawing is then fitted to its
  // box, as large as the box allows.
  const cy = window.cytoscape({
    container: box,
    elements,
    // Ranks run along the box's longer side, so that the fitted drawing is as large as it can be.
    layout: { name: 'dagre', rankDir: box.clientWidth >= 1.3 * box.clientHeight ? 'LR' : 'TB', nodeSep: 50, rankSep: 70, edgeSep: 30, fit: true, padding: 12 },
    userZoomingEnabled: true,
    maxZoom: 3,
    style: [
      { selector: 'node', style: { label: 'data(label)', 'text-wrap': 'wrap', 'text-valign': 'center', 'font-family': 'monospace',
        'font-size': NODE_FONT, shape: 'round-rectangle', width: 'data(w)', height: 'data(h)',
        'background-color': '#fff', 'border-width': 2, 'border-color': 'data(colour)' } },
      { selector: 'edge', style: { label: 'data(label)', 'font-size': 13, 'curve-style': 'bezier', width: 1.5,
        'control-point-step-size': 60, 'text-rotation': 'autorotate', 'text-margin-y': -9,
        'line-color': 'data(colour)', 'line-style': 'data(line)', 'target-arrow-color': 'data(colour)',
        'target-arrow-shape': graph.directed ? 'triangle' : 'none', 'text-background-color': '#fff', 'text-background-opacity': 0.8 } },
    ],
  });
  box.cy = cy; // the page refits it when the picture size changes
  box.dataset.nodes = graph.nodes.length;
  box.dataset.edges = graph.edges.length;
}

/** A figure drawing a DOT text as a graph, the text folded under it; null when the text is not
 * DOT this page reads. */
export function graphFigure(dot) {
  const graph = parseDot(dot);
  if (!graph) return null;
  const figure = document.createElement('figure');
  figure.className = 'graph-picture';
  const box = document.createElement('div');
  box.className = 'graph-box';
  box.setAttribute('role', 'img');
  box.setAttribute('aria-label', `a graph of ${graph.nodes.length} nodes and ${graph.edges.length} edges`);
  const details = document.createElement('details');
  const summary = document.createElement('summary'); // labelled by the style sheet
  const pre = document.createElement('pre');
  pre.textContent = dot + '\n';
  details.append(summary, pre);
  figure.append(box, details);
  drawGraph(box, graph).catch((e) => { box.textContent = `(the graph cannot be drawn: ${e.message})`; });
  return figure;
}

/** A graph's facts ([source, relation, target, value]) as a graph to draw: True edges plain,
 * False ones red and dashed (`!rel`), Undef ones dotted (`?rel`); `isa` edges are left out, as
 * the explorer does by default. Null when nothing is left. */
function factsGraph(facts) {
  const drawn = facts.filter((f) => f[1] !== 'isa');
  if (!drawn.length) return null;
  const nodes = new Map();
  const edges = drawn.map(([source, rel, target, value]) => {
    for (const id of [source, target]) if (!nodes.has(id)) nodes.set(id, { id, label: id });
    if (value === 'True') return { source, target, label: rel };
    if (value === 'False') return { source, target, label: '!' + rel, color: 'red', style: 'dashed' };
    return { source, target, label: '?' + rel, color: 'gray', style: 'dotted' };
  });
  return { directed: true, nodes: [...nodes.values()], edges };
}

/** A figure with a graph drawn from its facts (`{name, facts}`), or null. */
function factsFigure(world, className, what) {
  const graph = factsGraph(world.facts);
  if (!graph) return null;
  const figure = document.createElement('figure');
  figure.className = className;
  const box = document.createElement('div');
  box.className = 'graph-box';
  box.setAttribute('role', 'img');
  box.setAttribute('aria-label', `the graph ${world.name}: ${graph.nodes.length} nodes, ${graph.edges.length} edges`);
  figure.append(box);
  drawGraph(box, graph).catch((e) => { box.textContent = `(the ${what} cannot be drawn: ${e.message})`; });
  return figure;
}

/** The world a run ended with (the current graph's `{name, facts}`) as a figure. */
export function worldFigure(world) {
  const figure = factsFigure(world, 'graph-picture world', 'world');
  if (!figure) return null;
  const caption = document.createElement('figcaption');
  caption.textContent = `the world at the end: GRAPH is ${world.name}`;
  figure.prepend(caption);
  return figure;
}

/** A graph `out G` printed alone (`{name, facts}`), drawn, with the text `out` printed
 * folded under it; null when it has nothing to draw. */
export function shownFigure(graph, text) {
  const figure = factsFigure(graph, 'graph-picture shown', 'graph');
  if (!figure) return null;
  const details = document.createElement('details');
  const summary = document.createElement('summary'); // labelled by the style sheet
  const pre = document.createElement('pre');
  pre.textContent = text;
  details.append(summary, pre);
  figure.append(details);
  return figure;
}
