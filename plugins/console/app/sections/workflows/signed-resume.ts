// <console-wf-signed-resume>: the admin's test of signed resume for an
// execution waiting on an event: enter (or create) the tenant's signing
// secret and the event data, see the signed request, send it to
// POST /api/webhooks/{event_type}; the answer is shown and announced and a
// `resumed` event tells the execution view to reload.
import { LitElement, css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { shared } from '../../ui/styles.ts';
import { canSign, sendResume, signResume, type SignedResume } from './sign.ts';
import { WORKFLOWS_STRINGS, type WorkflowsStrings } from './strings.ts';

export class SignedResumeForm extends LitElement {
  static properties = {
    context: { attribute: false }, executionId: { attribute: false }, eventType: { attribute: false },
    configured: { state: true }, secret: { state: true }, data: { state: true }, signed: { state: true },
    problem: { state: true }, result: { state: true }, notice: { state: true }, busy: { state: true },
  };
  declare context: SectionContext | undefined;
  declare executionId: string;
  declare eventType: string;
  declare configured: boolean | null;
  declare secret: string;
  declare data: string;
  declare signed: SignedResume | null;
  declare problem: string;
  declare result: string;
  declare notice: string;
  declare busy: boolean;

  static styles = [shared, css`
    form { display: grid; gap: 0.6rem; max-width: 40rem; }
    label { display: grid; gap: 0.25rem; font-weight: 600; }
    input, textarea { font: inherit; padding: 0.4rem; border: 1px solid var(--border); border-radius: 6px; background: var(--surface); color: var(--fg); }
    textarea { font-family: ui-monospace, monospace; min-height: 4rem; }
    .row { display: flex; flex-wrap: wrap; gap: 0.5rem; }
    pre { white-space: pre-wrap; word-break: break-all; background: var(--surface); border: 1px solid var(--border); border-radius: 6px; padding: 0.5rem; font-size: 0.85rem; }
    .problem { color: var(--error); font-weight: 600; }
  `];

  constructor() {
    super();
    this.executionId = '';
    this.eventType = '';
    this.configured = null;
    this.secret = '';
    this.data = '{}';
    this.signed = null;
    this.problem = '';
    this.result = '';
    this.notice = '';
    this.busy = false;
  }

  private get t(): WorkflowsStrings { return WORKFLOWS_STRINGS[this.context?.locale ?? 'en']; }

  connectedCallback(): void {
    super.connectedCallback();
    void this.context?.api.get<{ configured: boolean }>('/api/admin/webhooks/signing-secret', { quiet: true })
      .then((s) => { this.configured = s.configured; }, () => { this.configured = null; });
  }

  private async createSecret(): Promise<void> {
    const created = await this.context?.api.post<{ secret: string }>('/api/admin/webhooks/signing-secret').catch(() => null);
    if (!created) return;
    this.secret = created.secret;
    this.configured = true;
    this.notice = this.t.secretCreated;
    this.context?.announce(this.t.secretCreated);
  }

  /** The signed request, or null with the problem shown. */
  private async sign(): Promise<SignedResume | null> {
    const t = this.t;
    this.problem = '';
    if (!this.secret.trim()) { this.problem = t.needSecret; return null; }
    let eventData: unknown;
    try { eventData = JSON.parse(this.data || '{}'); } catch { eventData = null; }
    if (!eventData || typeof eventData !== 'object' || Array.isArray(eventData)) { this.problem = t.badJson; return null; }
    this.signed = await signResume({
      secret: this.secret.trim(), tenant: this.context?.tenant ?? '', executionId: this.executionId, eventType: this.eventType, eventData: eventData as Record<string, unknown>,
    });
    return this.signed;
  }

  private async send(event: Event): Promise<void> {
    event.preventDefault();
    this.busy = true;
    try {
      const signed = await this.sign();
      if (!signed) return;
      const answer = await sendResume(signed);
      const message = String(answer.body.message ?? answer.body.status ?? '');
      this.result = format(this.t.resumeSent, { status: answer.status, message });
      this.context?.announce(this.result);
      if (answer.status === 202) this.dispatchEvent(new CustomEvent('resumed', { bubbles: true, composed: true, detail: { result: this.result } }));
    } finally {
      this.busy = false;
    }
  }

  private renderSigned() {
    if (!this.signed) return nothing;
    const s = this.signed;
    const lines = [`POST ${s.url}`, ...Object.entries(s.headers).map(([k, v]) => `${k}: ${v}`), '', s.body].join('\n');
    return html`<h4>${this.t.signedRequest}</h4><pre>${lines}</pre>`;
  }

  render() {
    const t = this.t;
    if (!canSign()) return html`<p>${t.cannotSign}</p>`;
    return html`<p class="muted">${t.resumeHelp}</p>
      ${this.configured === false ? html`<p>${t.noSecret} <button type="button" @click=${() => this.createSecret()}>${t.createSecret}</button></p>` : nothing}
      ${this.notice ? html`<p role="status">${this.notice}</p>` : nothing}
      <form @submit=${(e: Event) => this.send(e)}>
        <label>${t.secret}<input type="password" autocomplete="off" spellcheck="false" .value=${this.secret}
          @input=${(e: Event) => { this.secret = (e.target as HTMLInputElement).value; }}></label>
        <label>${t.eventData}<textarea spellcheck="false" .value=${this.data}
          @input=${(e: Event) => { this.data = (e.target as HTMLTextAreaElement).value; }}></textarea></label>
        <div role="alert">${this.problem ? html`<p class="problem">${this.problem}</p>` : nothing}</div>
        <div class="row">
          <button type="button" @click=${() => this.sign()}>${t.sign}</button>
          <button type="submit" class="primary" ?disabled=${this.busy}>${t.signAndSend}</button>
        </div>
      </form>
      ${this.renderSigned()}
      ${this.result ? html`<p>${this.result}</p>` : nothing}`;
  }
}
if (!customElements.get('console-wf-signed-resume')) customElements.define('console-wf-signed-resume', SignedResumeForm);
