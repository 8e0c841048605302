// The output pane: the script's output as it comes, warnings and errors in their own colour,
// and an SVG picture the script prints (`out P` of an SVG value, eight.ds --svg -) shown as a
// picture, with its text folded under it. Pictures are shown as <img> from a blob, so that a
// script's SVG cannot run code in the page. Chunks are put on the page once per frame.

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
    this.svg = null;         // the lines of a picture being read, or null
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
    if (this.svg) {
      this.addText(this.svg.join('\n') + '\n');
      this.svg = null;
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
      if (this.svg === null && this.held === null && /^\s*<\?xml\s/.test(line)) {
        this.held = line;
        continue;
      }
      if (this.svg === null && /^\s*<svg[\s>]/.test(line)) this.svg = this.held === null ? [] : [this.held];
      else if (this.svg === null && this.held !== null) plain += this.held + '\n';
      this.held = null;
      if (this.svg === null) {
        plain += line + '\n';
        continue;
      }
      this.svg.push(line);
      if (line.includes('</svg>')) {
        this.addText(plain);
        plain = '';
        this.addPicture(this.svg.join('\n'));
        this.svg = null;
      }
    }
    this.addText(plain);
  }

  showTail() {
    if (this.cut) return;
    if (!this.tail) {
      this.tail = document.createTextNode('');
      this.element.append(this.tail);
    }
    this.element.append(this.tail);
    this.tail.data = this.svg || this.held !== null ? '' : this.line;
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

  addPicture(svg) {
    if (!this.room(svg.length)) return;
    this.element.insertBefore(picture(svg, this.urls), this.tail);
    this.text = null;
  }
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
