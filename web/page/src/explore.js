// The Explore panel (docs/playground.md): `ds explore`'s fields (start, next, goal, h, view,
// symmetry), prefilled for the examples the docs explore (examples.json's `explore`, which `cargo xtask
// web` reads from the docs), and the explorer's own page (explorer/index.html with the
// app.js of `ds explore`, not a copy) in a frame, whose API requests the page answers from
// the worker: the engine holds the script's explorer and answers with the server's JSON.

const $ = (id) => document.getElementById(id);
const FIELDS = ['start', 'next', 'goal', 'h', 'view', 'symmetry'];

/** Fills the fields with an example's preset (empty when it has none). */
export function fillFields(preset) {
  for (const f of FIELDS) $('explore-' + f).value = preset?.[f] ?? '';
  const args = preset?.args ?? [];
  $('explore-note').textContent = args.length ? `the docs explore it with the arguments: ${args.join(' ')}` : '';
}

/** The fields as the engine's `explore` request takes them, or a sentence saying what is
 * missing. */
export function readFields() {
  const names = {};
  for (const f of FIELDS) {
    const v = $('explore-' + f).value.trim();
    if (v) names[f] = v;
  }
  const missing = ['start', 'next', 'goal'].filter((f) => !names[f]);
  return missing.length ? { error: `Explore needs ${missing.join(', ')} (ds explore's --${missing.join(', --')})` } : { names };
}

/** The explorer's API requests in flight to the worker, by id: each resolves to
 * {ok, status, body} as app.js's transport wants. `changed(count)` hears when the count
 * changes (Stop is enabled while requests wait). */
export class ApiRequests {
  constructor(changed) {
    this.waiting = new Map();
    this.changed = changed;
    this.since = 0;          // when the oldest request waiting was sent
  }

  get size() {
    return this.waiting.size;
  }

  has(id) {
    return this.waiting.has(id);
  }

  /** Sends `path` by `post(id)` and resolves when `answer(id, ...)` comes. */
  ask(id, post) {
    return new Promise((resolve, reject) => {
      if (!this.size) this.since = performance.now();
      this.waiting.set(id, { resolve, reject });
      this.changed(this.size);
      post(id);
    });
  }

  answer(id, { status, body }) {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    this.changed(this.size);
    w.resolve({ ok: status === 200, status, body });
  }

  /** Every request waiting fails with `message` (its worker was ended). */
  failAll(message) {
    if (!this.size) return;
    const all = [...this.waiting.values()];
    this.waiting.clear();
    this.changed(0);
    for (const w of all) w.reject(new Error(message));
  }
}

/** Shows the explorer's page in a fresh frame (a fresh page: nothing of an earlier explore
 * stays), with what is explored above it. */
export function showExplorer(title) {
  const frame = document.createElement('iframe');
  frame.id = 'explorer-frame';
  frame.title = 'the explorer';
  frame.src = 'explorer/index.html';
  $('explorer-frame')?.remove();
  $('explorer-pane').append(frame);
  $('explorer-title').textContent = title;
  showPane(true);
}

/** Removes the explorer's frame (its worker is gone). */
export function closeExplorer() {
  $('explorer-frame')?.remove();
  showPane(false);
}

/** The explorer instead of the editor and the output, or back. */
export function showPane(explorer) {
  document.body.dataset.view = explorer ? 'explore' : 'code';
  $('explorer-show').hidden = explorer || !$('explorer-frame');
}
