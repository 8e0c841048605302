// The editor: CodeMirror 6 with ds highlighting, Ctrl-Enter to run, and the errors of a run
// marked at their place (a lint diagnostic underlines the text, a line decoration marks the
// whole line so that the place shows even when the text is a single character).
import { basicSetup } from 'codemirror';
import { EditorView, Decoration, keymap } from '@codemirror/view';
import { StateField, StateEffect, EditorState } from '@codemirror/state';
import { indentWithTab } from '@codemirror/commands';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { dsLanguage } from './ds-language.js';

const setMarks = StateEffect.define();

/** The lines marked by the last run's errors (cleared by any edit). */
const marks = StateField.define({
  create: () => Decoration.none,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setMarks)) return e.value;
    return tr.docChanged ? Decoration.none : value.map(tr.changes);
  },
  provide: (f) => EditorView.decorations.from(f),
});

const errorLine = Decoration.line({ class: 'ds-error-line' });
const warningLine = Decoration.line({ class: 'ds-warning-line' });

export class Editor {
  /** An editor in `parent`; `onRun` is called on Ctrl-Enter (or Cmd-Enter), `onEdit` after
   * every change of the text. */
  constructor(parent, onRun, onEdit = () => {}) {
    const run = () => {
      onRun();
      return true;
    };
    this.view = new EditorView({
      parent,
      state: EditorState.create({
        doc: '',
        extensions: [
          basicSetup,
          dsLanguage,
          lintGutter(),
          marks,
          keymap.of([{ key: 'Mod-Enter', run }, { key: 'Shift-Enter', run }, indentWithTab]),
          EditorView.updateListener.of((update) => { if (update.docChanged) onEdit(); }),
        ],
      }),
    });
  }

  get code() {
    return this.view.state.doc.toString();
  }

  set code(text) {
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
  }

  /** The document position of a 1-based line and column (clamped into the text). */
  position(line, col) {
    const doc = this.view.state.doc;
    const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
    return Math.min(l.from + Math.max(col - 1, 0), l.to);
  }

  /** Marks the diagnostics (`{line, col, end_line, end_col, severity, message}`) of this file;
   * an empty list clears the marks. The first error is scrolled into view. */
  mark(diagnostics) {
    const found = diagnostics.filter((d) => d.line > 0).map((d) => {
      const from = this.position(d.line, d.col);
      const to = Math.max(from, this.position(d.end_line || d.line, d.end_col || d.col));
      return { from, to, severity: d.severity === 'warning' ? 'warning' : 'error', message: d.message };
    });
    const doc = this.view.state.doc;
    const lines = found
      .map((d) => (d.severity === 'error' ? errorLine : warningLine).range(doc.lineAt(d.from).from))
      .sort((a, b) => a.from - b.from);
    const effects = [setMarks.of(Decoration.set(lines, true))];
    if (found.length) effects.push(EditorView.scrollIntoView(found[0].from, { y: 'center' }));
    this.view.dispatch(setDiagnostics(this.view.state, found));
    this.view.dispatch({ effects });
  }

  /** The 1-based numbers of the lines marked as errors (for tests and the status line). */
  markedLines() {
    const out = [];
    const doc = this.view.state.doc;
    this.view.state.field(marks).between(0, doc.length, (from, _to, deco) => {
      if (deco.spec.class === 'ds-error-line') out.push(doc.lineAt(from).number);
    });
    return out;
  }

  focus() {
    this.view.focus();
  }
}
