// <console-sql-editor label="SQL" .value=…>: the SQL editor (CodeMirror 6,
// loaded on first render from its own chunk). `value` is the text; an
// `sql-change` event says it changed (read `value`); `marks` are the findings
// drawn in the editor (lint diagnostics). Until the editor has loaded, the
// text is shown read-only.
import { LitElement, css, html } from 'lit';
import type { Mark, SqlEditor } from './codemirror.ts';

export class SqlEditorElement extends LitElement {
  static properties = { label: {}, value: {}, marks: { attribute: false }, loaded: { state: true } };
  declare label: string;
  declare value: string;
  declare marks: Mark[];
  declare loaded: boolean;
  private editor: SqlEditor | undefined;

  constructor() {
    super();
    this.label = 'SQL';
    this.value = '';
    this.marks = [];
    this.loaded = false;
  }

  static styles = css`
    :host { display: block; }
    .loading { margin: 0; padding: 0.5rem; border: 1px solid var(--border); border-radius: 6px; min-height: 9rem; white-space: pre-wrap; font-family: ui-monospace, monospace; color: var(--muted); }
  `;

  protected firstUpdated(): void { void this.mount(); }

  connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated && !this.editor) void this.mount();
  }

  private async mount(): Promise<void> {
    const { createSqlEditor } = await import('./codemirror.ts');
    if (!this.isConnected || this.editor) return;
    const parent = this.renderRoot.querySelector<HTMLElement>('.editor')!;
    this.editor = createSqlEditor({
      parent, root: this.shadowRoot!, doc: this.value, label: this.label,
      onChange: (text) => {
        this.value = text;
        this.dispatchEvent(new Event('sql-change'));
      },
    });
    this.editor.mark(this.marks);
    this.loaded = true;
  }

  protected updated(changed: Map<PropertyKey, unknown>): void {
    if (!this.editor) return;
    if (changed.has('value')) this.editor.setValue(this.value);
    if (changed.has('label')) this.editor.setLabel(this.label);
    if (changed.has('marks')) this.editor.mark(this.marks);
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    this.editor?.destroy();
    this.editor = undefined;
  }

  focus(): void { this.editor?.focus(); }

  render() {
    return html`<div class="editor"></div>${this.loaded ? '' : html`<pre class="loading" aria-hidden="true">${this.value}</pre>`}`;
  }
}

if (!customElements.get('console-sql-editor')) customElements.define('console-sql-editor', SqlEditorElement);
