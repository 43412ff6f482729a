// <console-live>: the polite live region of the page, and the visible,
// assertive alert of a failed request. The shell has one; sections call
// `context.announce(message)`.
import { LitElement, css, html } from 'lit';

export class LiveRegion extends LitElement {
  static properties = { message: { state: true }, alert: { state: true }, dismissLabel: { attribute: false } };
  declare message: string;
  declare alert: string;
  declare dismissLabel: string;
  constructor() {
    super();
    this.message = '';
    this.alert = '';
    this.dismissLabel = 'Dismiss';
  }
  static styles = css`
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .alert { display: flex; gap: 1rem; align-items: start; justify-content: space-between; border: 2px solid var(--error); background: var(--error-bg); color: var(--fg); border-radius: 8px; padding: 0.6rem 0.9rem; margin: 0 0 1rem; }
    .alert:empty { display: none; }
    button { font: inherit; border: 1px solid var(--border); background: var(--surface); color: var(--fg); border-radius: 6px; padding: 0.2rem 0.6rem; cursor: pointer; }
    :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  `;
  /** Says `message` politely (set again to repeat it). */
  announce(message: string): void {
    this.message = '';
    void this.updateComplete.then(() => { this.message = message; });
  }
  /** Shows and announces an error until dismissed or replaced. */
  showAlert(message: string): void { this.alert = message; }
  clearAlert(): void { this.alert = ''; }
  render() {
    return html`<div class="sr" role="status" aria-live="polite">${this.message}</div>
      <div role="alert">${this.alert ? html`<div class="alert"><span>${this.alert}</span><button type="button" @click=${() => this.clearAlert()}>${this.dismissLabel}</button></div>` : ''}</div>`;
  }
}
if (!customElements.get('console-live')) customElements.define('console-live', LiveRegion);
