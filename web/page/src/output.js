// The output pane: the script's output as it comes, warnings and errors in their own colour,
// an SVG picture the script prints (`out P` of an SVG value, eight.ds --svg -) shown as a
// picture and a graph printed as DOT (`out G.dot()`) or alone (`out G`, which the engine sends
// as 'shown') drawn (dot.js), each with its text folded under it. Pictures are shown as <img> from a blob, so that a
// script's SVG cannot run code in the page. Chunks are put on the page once per frame.

import { graphFigure, shownFigure } from './dot.js';

/** At most this much text is shown: past it, the output is cut (the tab must stay usable). */
const MAX_SHOWN = 4 << 20;

export class Output {
  constructor(element) {
    this.element = element;
    this.urls = [];
    this.clear();
  }

  clear() {
    for (const url of this.urls) URL.revokeObjectURL(url);
    this.urls = [];
    this.element.replaceChildren();
    this.pending = [];
    this.line = '';          // the out stream's last, unfinished line
    this.block = null;       // a picture being read: {kind: 'svg' or 'dot', lines, depth}
    this.held = null;        // an `<?xml ...?>` line: the start of a picture if <svg follows
    this.shown = 0;
    this.cut = false;
    this.text = null;        // the text node out lines go to
    this.tail = null;        // the unfinished line, shown until it ends
    this.scheduled = false;
  }

  /** Adds a chunk of a stream ('out' or 'err'); the page shows it at the next frame. */
  append(stream, text) {
    this.pending.push([stream, text]);
    if (!this.scheduled) {
      this.scheduled = true;
      requestAnimationFrame(() => this.render());
    }
  }

  /** Shows what is pending now, and the unfinished last line as a line (the run is over). */
  finish() {
    this.render();
    if (this.held !== null) this.addText(this.held + '\n');
    this.held = null;
    if (this.block) {
      this.addText(this.block.lines.join('\n') + '\n');
      this.block = null;
    }
    if (this.line) this.addText(this.line);
    this.line = '';
    this.showTail();
  }

  /** A note of the page itself (stopped, crashed), in the error colour. */
  note(text) {
    this.render();
    this.addSpan('note', text);
  }

  render() {
    this.scheduled = false;
    const atBottom = this.element.scrollHeight - this.element.scrollTop - this.element.clientHeight < 40;
    for (const [stream, text] of this.pending.splice(0)) {
      if (stream === 'out') this.out(text);
      else if (stream === 'shown') this.showGraph(text);
      else this.addSpan('err', text);
    }
    this.showTail();
    if (atBottom) this.element.scrollTop = this.element.scrollHeight;
  }

  out(text) {
    const lines = (this.line + text).split('\n');
    this.line = lines.pop();
    let plain = '';
    for (const line of lines) {
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
    if (!this.room(text.length)) return;
    this.element.insertBefore(figure, this.tail);
    this.text = null;
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
    if (!this.room(text.length)) return;
    const figure = kind === 'svg' ? picture(text, this.urls) : graphFigure(text);
    if (!figure) return this.addText(text + '\n');
    this.element.insertBefore(figure, this.tail);
    this.text = null;
  }

  showTail() {
    if (this.cut) return;
    if (!this.tail) {
      this.tail = document.createTextNode('');
      this.element.append(this.tail);
    }
    this.element.append(this.tail);
    this.tail.data = this.block || this.held !== null ? '' : this.line;
  }

  /** Whether `n` more characters may be shown; past the limit, says once that it cut. */
  room(n) {
    if (this.cut) return false;
    this.shown += n;
    if (this.shown <= MAX_SHOWN) return true;
    this.cut = true;
    this.addSpan('note', `\n… the output is cut here: more than ${MAX_SHOWN >> 20} MB (write it to a file to download it)\n`, true);
    return false;
  }

  addText(text) {
    if (!text || !this.room(text.length)) return;
    if (!this.text || this.text.nextSibling !== this.tail) {
      this.text = document.createTextNode('');
      this.element.insertBefore(this.text, this.tail);
    }
    this.text.appendData(text);
  }

  addSpan(kind, text, force = false) {
    if (!force && !this.room(text.length)) return;
    const span = document.createElement('span');
    span.className = kind;
    span.textContent = text;
    this.element.insertBefore(span, this.tail);
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
export function picture(svg, urls) {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  urls.push(url);
  const figure = document.createElement('figure');
  figure.className = 'picture';
  const img = document.createElement('img');
  img.src = url;
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
