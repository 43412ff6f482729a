// <console-row-button label="…" variant="link">text</console-row-button>: a
// button styled like the console's, for use inside <console-table> cells
// (cells render in the table's shadow root, which section styles do not
// reach). `label` is its accessible name when the visible text alone is not
// enough (it should contain that text); focusing the element focuses the
// button; its clicks bubble to the element's listeners.
import { LitElement, css, html, nothing } from 'lit';

export class RowButton extends LitElement {
  static shadowRootOptions = { ...LitElement.shadowRootOptions, delegatesFocus: true };
  static properties = { label: {}, variant: { reflect: true }, disabled: { type: Boolean } };
  declare label: string;
  declare variant: 'default' | 'link';
  declare disabled: boolean;
  constructor() {
    super();
    this.label = '';
    this.variant = 'default';
    this.disabled = false;
  }
  static styles = css`
    :host { display: inline-block; }
    button { font: inherit; padding: 0.25rem 0.75rem; border: 1px solid var(--border); border-radius: 6px; background: var(--surface); color: var(--fg); cursor: pointer; }
    :host([variant='link']) button { border: none; background: none; padding: 0; color: var(--accent); text-decoration: underline; font-family: ui-monospace, monospace; }
    button:disabled { opacity: 0.6; cursor: default; }
    :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  `;
  render() {
    return html`<button type="button" ?disabled=${this.disabled} aria-label=${this.label || nothing}><slot></slot></button>`;
  }
}
if (!customElements.get('console-row-button')) customElements.define('console-row-button', RowButton);
