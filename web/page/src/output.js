// The output pane: the script's output as it comes, warnings and errors in their own colour,
// an SVG picture the script prints (`out P` of an SVG value, eight.ds --svg -) shown as a
// picture and a graph printed as DOT (`out G.dot()`) or alone (`out G`, which the engine sends
// as 'shown') drawn (dot.js), each with its text folded under it. Pictures are shown as <img> from a blob, so that a
// script's SVG cannot run code in the page. Chunks are put on the page once per frame.

import { graphFigure, shownFigure } from './dot.js';

/** At most this much text is shown: past it, the output is cut (the tab must stay usable). */
const MAX_SHOWN = 4 << 20;

/** What a picture counts against MAX_SHOWN besides its text: an image to decode and lay out
 * costs the page far more than its bytes (3,000 tiny SVGs froze the tab, issue 56). */
const PICTURE_COST = 32 << 10;

/** The page works on the output for at most this long at a time (ms), then lets the browser
 * draw and answer clicks (Stop) before it goes on. */
const SLICE_MS = 8;

/** At most about this much text is added at a time: the browser lays text out at a few MB
 * a second, and the layout of what one slice adds must stay short too. */
const SLICE_CHARS = 16 << 10;

/** At most this many pictures start loading per frame: the browser draws each SVG picture
 * on the page's thread, and many at once would hold it (issue 56). */
const PICTURES_PER_FRAME = 4;

/** A block of text is closed at a line's end past this length: the browser then lays out only
 * the last block as output comes, not the whole pane. */
const BLOCK_CHARS = 16 << 10;

export class Output {
  constructor(element) {
    this.element = element;
    this.urls = [];
    this.waiting = [];
    // Whether the pane follows the output (the user has not scrolled up): known from scroll
    // events, so that adding output never makes the browser lay the pane out at once.
    this.following = true;
    this.scrolling = false;
    element.addEventListener('scroll', () => {
      this.following = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
    }, { passive: true });
    this.clear();
  }

  /** Scrolls to the end at the next frame, when the browser lays the page out anyway. */
  follow() {
    if (!this.following || this.scrolling) return;
    this.scrolling = true;
    requestAnimationFrame(() => {
      this.scrolling = false;
      if (this.following) this.element.scrollTop = this.element.scrollHeight;
    });
  }

  clear() {
    for (const url of this.urls) URL.revokeObjectURL(url);
    this.urls = [];
    this.element.replaceChildren();
    this.following = true;
    this.pending = [];       // [stream, text] not yet on the page: 'out', 'err', 'shown', 'note', 'finish'
    this.line = '';          // the out stream's last, unfinished line
    this.block = null;       // a picture being read: {kind: 'svg' or 'dot', lines, depth}
    this.held = null;        // an `<?xml ...?>` line: the start of a picture if <svg follows
    this.shown = 0;
    this.cut = false;
    this.para = null;        // the block of text output goes to
    this.text = null;        // the text node out lines go to
    this.tail = null;        // the unfinished line, shown until it ends
    this.scheduled = false;
    this.unloaded = [];      // pictures whose image is not asked for yet: [img, url]
    this.loading = false;
    this.settle();
  }

  /** Adds a chunk of a stream ('out', 'err' or 'shown'); the page shows it soon after. */
  append(stream, text) {
    // Past the cut nothing more is shown: a flood is dropped here, at no cost.
    if (this.cut && stream !== 'note' && stream !== 'finish') return;
    this.pending.push([stream, text]);
    this.schedule();
  }

  /** Shows the unfinished last line as a line, once what is pending is shown (the run is over). */
  finish() {
    this.append('finish', '');
  }

  /** A note of the page itself (stopped, crashed), in the error colour, after the output. */
  note(text) {
    this.append('note', text);
  }

  /** Drops what is not shown yet (Stop: the page answers at once); how many characters. */
  discard() {
    let dropped = 0;
    for (const [stream, text] of this.pending) if (stream === 'out' || stream === 'err') dropped += text.length;
    this.pending = [];
    return dropped;
  }

  /** Resolves once everything appended is on the page (its pictures asked for). */
  idle() {
    if (!this.pending.length && !this.unloaded.length) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  settle() {
    if (this.pending.length || this.unloaded.length) return;
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** Gives a few waiting pictures their image each frame. */
  loadPictures() {
    if (this.loading) return;
    this.loading = true;
    requestAnimationFrame(() => {
      this.loading = false;
      for (const [img, url] of this.unloaded.splice(0, PICTURES_PER_FRAME)) img.src = url;
      if (this.unloaded.length) this.loadPictures();
      else this.settle();
    });
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => this.render(), 0);
  }

  /** Puts pending output on the page for one slice of time, and schedules the rest. */
  render() {
    this.scheduled = false;
    this.until = performance.now() + SLICE_MS;
    let added = 0;
    while (this.pending.length && performance.now() < this.until && added < SLICE_CHARS) {
      const [stream, text] = this.pending.shift();
      added += text.length;
      if (stream === 'out') this.out(this.sliceOf(text));
      else if (stream === 'shown') this.showGraph(text);
      else if (stream === 'note') this.addSpan('note', text, true);
      else if (stream === 'finish') this.finishNow();
      else this.addSpan('err', text);
    }
    this.showTail();
    this.follow();
    if (this.pending.length) this.schedule();
    else this.settle();
  }

  finishNow() {
    if (this.held !== null) this.addText(this.held + '\n');
    this.held = null;
    if (this.block) {
      this.addText(this.block.lines.join('\n') + '\n');
      this.block = null;
    }
    if (this.line) this.addText(this.line);
    this.line = '';
  }

  /** The first SLICE_CHARS or so of an out chunk (to a line's end when one is near); the
   * rest goes back to the front of the queue. */
  sliceOf(text) {
    if (text.length <= SLICE_CHARS) return text;
    const end = text.lastIndexOf('\n', SLICE_CHARS);
    const at = end > SLICE_CHARS / 2 ? end + 1 : SLICE_CHARS;
    this.pending.unshift(['out', text.slice(at)]);
    return text.slice(0, at);
  }

  out(text) {
    const lines = (this.line + text).split('\n');
    this.line = lines.pop();
    let plain = '';
    for (const [i, line] of lines.entries()) {
      if (this.cut) return;
      // Pictures take time: past the slice's time, the rest waits for the next slice.
      if (i % 16 === 0 && i > 0 && performance.now() > this.until) {
        this.pending.unshift(['out', lines.slice(i).join('\n') + '\n' + this.line]);
        this.line = '';
        break;
      }
      if (this.block === null && this.held === null && /^\s*<\?xml\s/.test(line)) {
        this.held = line;
        continue;
      }
      if (this.block === null) {
        this.block = blockStart(line, this.held);
        if (this.block === null && this.held !== null) plain += this.held + '\n';
      }
      this.held = null;
      if (this.block === null) {
        plain += line + '\n';
        continue;
      }
      if (this.blockLine(line)) {
        this.addText(plain);
        plain = '';
        this.addBlock(this.block);
        this.block = null;
      }
    }
    this.addText(plain);
  }

  /** A graph `out G` printed alone: `{graph, text}`, drawn after what came before it. */
  showGraph(json) {
    const { graph, text } = JSON.parse(json);
    this.addText(this.line);
    this.line = '';
    const figure = shownFigure(graph, text);
    if (!figure) return this.addText(text);
    if (!this.room(text.length + PICTURE_COST)) return;
    this.addFigure(figure);
  }

  /** Adds a line to the picture being read; whether it ends it. */
  blockLine(line) {
    const b = this.block;
    b.lines.push(line);
    if (b.kind === 'svg') return line.includes('</svg>');
    b.depth += braces(line);
    return b.depth <= 0;
  }

  addBlock({ kind, lines }) {
    const text = lines.join('\n');
    if (!this.room(text.length + PICTURE_COST)) return;
    const figure = kind === 'svg' ? picture(text, this.urls, this.unloaded) : graphFigure(text);
    if (kind === 'svg') this.loadPictures();
    if (!figure) return this.addText(text + '\n');
    this.addFigure(figure);
  }

  /** A figure goes between blocks of text: the text after it starts a new block. */
  addFigure(figure) {
    this.element.append(figure);
    this.para = null;
    this.text = null;
  }

  /** The block of text output goes to now (a new one after a figure or a full block). */
  currentPara() {
    if (!this.para) {
      this.para = document.createElement('div');
      this.para.className = 'text';
      this.element.append(this.para);
    }
    return this.para;
  }

  showTail() {
    if (this.cut) return;
    if (!this.tail) this.tail = document.createTextNode('');
    const para = this.currentPara();
    if (this.tail.parentNode !== para || para.lastChild !== this.tail) para.append(this.tail);
    this.tail.data = this.block || this.held !== null ? '' : this.line;
  }

  /** Whether `n` more characters may be shown; past the limit, says once that it cut. */
  room(n) {
    if (this.cut) return false;
    this.shown += n;
    if (this.shown <= MAX_SHOWN) return true;
    this.cut = true;
    this.pending = this.pending.filter(([stream]) => stream === 'note' || stream === 'finish');
    this.addSpan('note', `\n… the output is cut here: more than ${MAX_SHOWN >> 20} MB, counting each picture as ${PICTURE_COST >> 10} KB (write it to a file to download it)\n`, true);
    return false;
  }

  addText(text) {
    if (!text || !this.room(text.length)) return;
    const para = this.currentPara();
    if (!this.text || this.text.parentNode !== para) {
      this.text = document.createTextNode('');
      para.insertBefore(this.text, this.tail && this.tail.parentNode === para ? this.tail : null);
    }
    this.text.appendData(text);
    if (this.text.length > BLOCK_CHARS && text.endsWith('\n')) {
      this.para = null;
      this.text = null;
    }
  }

  addSpan(kind, text, force = false) {
    if (!force && !this.room(text.length)) return;
    const span = document.createElement('span');
    span.className = kind;
    span.textContent = text;
    const para = this.currentPara();
    para.insertBefore(span, this.tail && this.tail.parentNode === para ? this.tail : null);
    this.text = null;
  }
}

/** The picture a line starts (an `<?xml` line before it is part of an SVG), or null. */
function blockStart(line, held) {
  if (/^\s*<svg[\s>]/.test(line)) return { kind: 'svg', lines: held === null ? [] : [held], depth: 0 };
  if (held === null && /^\s*(strict\s+)?(di)?graph\b[^{"]*\{\s*$/.test(line)) return { kind: 'dot', lines: [], depth: 0 };
  return null;
}

/** The braces a DOT line opens less those it closes (those in quoted strings do not count). */
function braces(line) {
  let depth = 0;
  for (const m of line.replace(/"(?:[^"\\]|\\.)*"/g, '').matchAll(/[{}]/g)) depth += m[0] === '{' ? 1 : -1;
  return depth;
}

/** A figure showing an SVG text as a picture, its text folded under it. */
export function picture(svg, urls, unloaded = null) {
  const url = URL.createObjectURL(new Blob([safeSvg(svg)], { type: 'image/svg+xml' }));
  urls.push(url);
  const figure = document.createElement('figure');
  figure.className = 'picture';
  const img = document.createElement('img');
  img.decoding = 'async'; // the browser draws many SVG pictures on the page's thread otherwise
  // With `unloaded`, the caller gives the image its source when the page has time for it.
  if (unloaded) unloaded.push([img, url]);
  else img.src = url;
  img.alt = 'a picture the script drew (SVG)';
  const details = document.createElement('details');
  // Its label comes from the style sheet, so that the pane's text is the output and nothing
  // more.
  const summary = document.createElement('summary');
  summary.setAttribute('aria-label', 'SVG text');
  const pre = document.createElement('pre');
  pre.textContent = svg + '\n';
  details.append(summary, pre);
  figure.append(img, details);
  return figure;
}

/** The elements a picture may hold: shapes, text, paint and structure. No script, no foreign
 * objects, no frames, no animation (which can set attributes such as href). */
const SVG_ELEMENTS = new Set(['svg', 'g', 'defs', 'symbol', 'use', 'title', 'desc', 'metadata', 'style', 'rect', 'circle',
  'ellipse', 'line', 'polyline', 'polygon', 'path', 'text', 'tspan', 'textPath', 'marker', 'clipPath', 'mask', 'pattern',
  'linearGradient', 'radialGradient', 'stop', 'filter', 'feGaussianBlur', 'feOffset', 'feBlend', 'feFlood', 'feComposite',
  'feMerge', 'feMergeNode', 'feColorMatrix', 'feDropShadow']);

/**
 * The SVG text with only the elements above, no event handlers (`on...`) and no links out of
 * the picture (an `href` must name a part of it, `#id`). The picture's blob can be opened as a
 * tab of its own, in the page's origin: what it holds must not be able to run script there
 * (issue 56). Text that is not well-formed SVG becomes an empty picture.
 */
export function safeSvg(svg) {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const root = doc.documentElement;
  if (root.localName !== 'svg' || doc.getElementsByTagName('parsererror').length) {
    return '<svg xmlns="http://www.w3.org/2000/svg"/>';
  }
  const walk = (element) => {
    for (const node of [...element.childNodes]) if (node.nodeType === Node.PROCESSING_INSTRUCTION_NODE) node.remove();
    for (const child of [...element.children]) {
      if (!SVG_ELEMENTS.has(child.localName) || child.namespaceURI !== root.namespaceURI) child.remove();
      else walk(child);
    }
    for (const { name, value } of [...element.attributes]) {
      const local = name.replace(/^.*:/, '').toLowerCase();
      const link = local === 'href' && !value.trim().startsWith('#');
      if (local.startsWith('on') || link || /^\s*(javascript|data):/i.test(value)) element.removeAttribute(name);
    }
  };
  walk(root);
  // A <style> sheet can ask for other documents (@import, url(...)): only local ones stay.
  for (const style of [...root.getElementsByTagName('style')]) {
    if (/@import|url\(\s*['"]?(?!#)/i.test(style.textContent)) style.remove();
  }
  // The root alone: no processing instruction before it (an xml-stylesheet could transform it).
  return new XMLSerializer().serializeToString(root);
}
