// The SQL editor's CodeMirror 6 view, in a chunk of its own (sql-editor.ts
// imports this module dynamically, so only the Transforms page loads it):
// PostgreSQL highlighting, line numbers, history, and the analysis's
// findings as lint diagnostics. Mounted with `root` set to the element's
// shadow root, so style-mod adopts a constructed stylesheet there instead of
// injecting a <style> element (which the console's `style-src 'self'` blocks).
// Tab is not bound (no indentWithTab): it moves focus out, as in a textarea.
import { EditorView, minimalSetup } from 'codemirror';
import { Compartment, type Text } from '@codemirror/state';
import { lineNumbers } from '@codemirror/view';
import { bracketMatching } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { PostgreSQL, sql } from '@codemirror/lang-sql';

/** A finding to mark: 1-based line and column, as the analysis gives them. */
export interface Mark { line: number; column: number; severity: 'error' | 'warning'; message: string }

export interface SqlEditor {
  value(): string;
  setValue(text: string): void;
  setLabel(label: string): void;
  mark(marks: Mark[]): void;
  focus(): void;
  destroy(): void;
}

const theme = EditorView.theme({
  '&': { border: '1px solid #8c959f', borderRadius: '6px', background: 'var(--surface)', fontSize: '0.9rem' },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '2px' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', minHeight: '9rem' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', maxHeight: '24rem', overflow: 'auto' },
  // The default gutter grey on grey is below AA contrast.
  '.cm-gutters': { background: 'var(--bg)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
});

/** Where a finding starts and ends in the document: the word at its column (or the point, at a line's end). */
function rangeOf(doc: Text, mark: Mark): { from: number; to: number } {
  const line = doc.line(Math.min(Math.max(1, mark.line), doc.lines));
  const from = Math.min(line.from + Math.max(0, mark.column - 1), line.to);
  let to = from;
  while (to < line.to && /[\w$."]/.test(doc.sliceString(to, to + 1))) to++;
  if (to === from && from < line.to) to = from + 1;
  return { from, to };
}

export function createSqlEditor(options: { parent: HTMLElement; root: ShadowRoot; doc: string; label: string; onChange: (text: string) => void }): SqlEditor {
  const label = new Compartment();
  const view = new EditorView({
    parent: options.parent,
    root: options.root,
    doc: options.doc,
    extensions: [
      minimalSetup, lineNumbers(), bracketMatching(), sql({ dialect: PostgreSQL, upperCaseKeywords: true }), lintGutter(), theme,
      EditorView.lineWrapping,
      label.of(EditorView.contentAttributes.of({ 'aria-label': options.label })),
      EditorView.updateListener.of((update) => { if (update.docChanged) options.onChange(update.state.doc.toString()); }),
    ],
  });
  return {
    value: () => view.state.doc.toString(),
    setValue: (text) => {
      if (text !== view.state.doc.toString()) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    setLabel: (text) => view.dispatch({ effects: label.reconfigure(EditorView.contentAttributes.of({ 'aria-label': text })) }),
    mark: (marks) => {
      const diagnostics: Diagnostic[] = marks.map((mark) => ({ ...rangeOf(view.state.doc, mark), severity: mark.severity, message: mark.message }));
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
