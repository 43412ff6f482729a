// <console-sources-credentials>: a source's credential fields, each only
// "set" or "not set" (values are never read back), and a form that replaces
// them: password inputs sent once (PATCH /api/v1/sources/{id} with
// credential_values; in vault mode as a new named credential), then
// forgotten. Fires `source-changed` with the source as saved.
import { LitElement, html } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import '../../ui/status-badge.ts';
import { sourcesStyles } from './styles.ts';
import { SOURCES_STRINGS } from './strings.ts';
import type { Source } from './types.ts';

export class SourcesCredentials extends LitElement {
  static properties = { context: { attribute: false }, source: { attribute: false }, editing: { state: true }, busy: { state: true } };
  declare context: SectionContext;
  declare source: Source;
  declare editing: boolean;
  declare busy: boolean;
  static styles = sourcesStyles;

  constructor() {
    super();
    this.editing = false;
    this.busy = false;
  }

  private get t() { return SOURCES_STRINGS[this.context.locale]; }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    const before = changed.get('source') as Source | undefined;
    if (before && before.id !== this.source.id) this.editing = false;
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const values: Record<string, string> = {};
    for (const field of this.source.credential_fields) {
      const value = String(new FormData(form).get(field) ?? '');
      if (value) values[field] = value;
    }
    form.reset();
    if (Object.keys(values).length === 0) return;
    const source = this.source;
    const body: Record<string, unknown> = { credential_values: values };
    if (source.credential_mode === 'vault') body.credential_name = `${source.name} ${new Date().toISOString()}`;
    this.busy = true;
    try {
      const saved = await this.context.api.patch<Source>(`/api/v1/sources/${source.id}`, body);
      this.editing = false;
      this.context.announce(format(this.t.credentialsSaved, { name: saved.name }));
      this.dispatchEvent(new CustomEvent('source-changed', { detail: { source: saved }, bubbles: true, composed: true }));
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  render() {
    const t = this.t;
    const fields = this.source.credential_fields;
    return html`<section class="panel" aria-labelledby="credentials-heading">
      <h3 id="credentials-heading">${t.credentials}</h3>
      ${fields.length === 0 ? html`<p class="muted">${t.noCredentials}</p>` : html`
        <dl>${fields.map((field) => html`<dt>${field}</dt><dd>${this.source.credential_fields_set.includes(field)
          ? html`<console-status tone="ok">${t.set}</console-status>` : html`<console-status tone="neutral">${t.notSet}</console-status>`}</dd>`)}</dl>
        ${this.editing ? html`<form aria-label=${t.replaceCredentials} @submit=${this.save}>
            <p class="hint">${t.replaceIntro}</p>
            ${fields.map((field) => html`<div class="field"><label for=${`cred-${field}`}>${field}</label>
              <input id=${`cred-${field}`} name=${field} type="password" autocomplete="new-password"></div>`)}
            <div class="actions">
              <button type="submit" class="primary" ?disabled=${this.busy}>${t.saveCredentials}</button>
              <button type="button" @click=${() => { this.editing = false; }}>${t.cancel}</button>
            </div>
          </form>`
        : html`<button type="button" @click=${() => { this.editing = true; }}>${t.replaceCredentials}</button>`}`}
    </section>`;
  }
}
if (!customElements.get('console-sources-credentials')) customElements.define('console-sources-credentials', SourcesCredentials);
