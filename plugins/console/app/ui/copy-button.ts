// <console-copy-button .value=${text} label="Copy …" .announce=${fn}
// copied="Copied" failed="…">Copy</console-copy-button>: puts `value` on the
// clipboard (the clipboard API) and announces `copied`, or `failed` where the
// browser refuses. `label` is the button's accessible name (it should
// contain the visible text); usable inside <console-table> cells.
import { LitElement, css, html, nothing } from 'lit';

export class CopyButton extends LitElement {
  static shadowRootOptions = { ...LitElement.shadowRootOptions, delegatesFocus: true };
  static properties = { value: {}, label: {}, copied: {}, failed: {}, announce: { attribute: false } };
  declare value: string;
  declare label: string;
  declare copied: string;
  declare failed: string;
  declare announce: ((message: string) => void) | undefined;
  constructor() {
    super();
    this.value = '';
    this.label = '';
    this.copied = 'Copied';
    this.failed = 'Copy failed';
    this.announce = undefined;
  }
  static styles = css`
    :host { display: inline-block; }
    button { font: inherit; font-size: 0.875rem; padding: 0.15rem 0.6rem; border: 1px solid var(--border); border-radius: 6px; background: var(--surface); color: var(--fg); cursor: pointer; }
    :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  `;
  private async copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.value);
      this.announce?.(this.copied);
    } catch {
      this.announce?.(this.failed);
    }
  }
  render() {
    return html`<button type="button" aria-label=${this.label || nothing} @click=${this.copy}><slot></slot></button>`;
  }
}
if (!customElements.get('console-copy-button')) customElements.define('console-copy-button', CopyButton);
