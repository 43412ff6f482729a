// <console-status tone="ok|warn|error|neutral">text</console-status>: a
// status in words and colour (the words carry the meaning; colour only helps).
import { LitElement, css, html } from 'lit';

export type Tone = 'ok' | 'warn' | 'error' | 'neutral';

export class StatusBadge extends LitElement {
  static properties = { tone: { reflect: true } };
  declare tone: Tone;
  constructor() { super(); this.tone = 'neutral'; }
  static styles = css`
    :host { display: inline-block; border-radius: 999px; padding: 0.1rem 0.6rem; font-size: 0.875rem; font-weight: 600; border: 1px solid currentColor; }
    :host([tone='ok']) { color: var(--ok); }
    :host([tone='warn']) { color: var(--warn); }
    :host([tone='error']) { color: var(--error); }
    :host([tone='neutral']) { color: var(--muted); }
  `;
  render() { return html`<slot></slot>`; }
}
if (!customElements.get('console-status')) customElements.define('console-status', StatusBadge);
