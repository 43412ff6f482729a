// The Embed section (admins): per client of the tenant, the chat widget's
// embed configuration (enabled, allowed origins, mode, features, theme)
// edited through the embed plugin's routes, a live preview of the widget's
// launcher with the theme as edited, the install snippet with a Copy button,
// and the embed credential: provisioned, rotated (the secret shown once, kept
// only in this page's memory) and revoked after a confirmation.
import { css, html, nothing } from 'lit';
import { TenantSection } from '../../ui/tenant-section.ts';
import { keyed } from 'lit/directives/keyed.js';
import { format, STRINGS } from '../../i18n.ts';
import { shared } from '../../ui/styles.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import { EMBED_STRINGS, type EmbedStrings } from './strings.ts';

interface Client { id: number; client_key: string; name: string }
interface Features { uploads: boolean; history: boolean; feedback: boolean; voice: boolean }
interface EmbedConfig {
  client_id: number; client_key: string; enabled: boolean; allowed_origins: string[]; default_mode: 'launcher' | 'inline';
  features: Features; theme: Record<string, string>; service_account_client_id: string | null; embed_token_credentials_updated_at: string | null;
}
interface Credential { service_account_client_id: string; client_secret: string; token_endpoint: string }

const FEATURES: (keyof Features)[] = ['uploads', 'history', 'feedback', 'voice'];
/** The widget's element, served by the embed plugin on this origin. */
const WIDGET_URL = '/embed/v1/platform-chat.ce.js';

export default class EmbedSection extends TenantSection<EmbedStrings> {
  static properties = {
    clients: { state: true }, clientId: { state: true }, config: { state: true }, accent: { state: true }, font: { state: true },
    secret: { state: true }, busy: { state: true }, widgetReady: { state: true },
  };
  declare clients: Client[] | null;
  declare clientId: number | null;
  declare config: EmbedConfig | null;
  declare accent: string;
  declare font: string;
  declare secret: Credential | null;
  declare busy: boolean;
  declare widgetReady: boolean;

  static styles = [shared, css`
    label { font-weight: 600; }
    .field { display: grid; gap: 0.25rem; margin: 0.75rem 0; }
    .check { display: flex; gap: 0.5rem; align-items: center; font-weight: 400; margin: 0.25rem 0; }
    input[type='text'], textarea, select { font: inherit; color: var(--fg); padding: 0.35rem 0.5rem; border: 1px solid #8c959f; border-radius: 6px; background: var(--surface); min-width: 0; max-width: 100%; }
    textarea { min-height: 5rem; resize: vertical; }
    fieldset { border: 1px solid var(--border); border-radius: 8px; margin: 0.75rem 0; padding: 0.5rem 0.9rem 0.75rem; }
    legend { font-weight: 600; padding: 0 0.3rem; }
    .hint { color: var(--muted); font-size: 0.9rem; font-weight: 400; }
    .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); gap: 1.25rem; align-items: start; }
    .swatch { display: inline-block; width: 1.2rem; height: 1.2rem; border-radius: 4px; border: 1px solid var(--border); vertical-align: middle; }
    .preview { position: relative; transform: translateZ(0); height: 9rem; border: 1px dashed var(--border); border-radius: 8px; overflow: hidden;
      background: repeating-linear-gradient(135deg, var(--bg), var(--bg) 10px, var(--surface) 10px, var(--surface) 20px); }
    pre { background: var(--bg); border: 1px solid var(--border); border-radius: 6px; padding: 0.75rem; overflow-x: auto; font-size: 0.85rem; white-space: pre; }
    .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 0.75rem; }
    .secret { border: 2px solid var(--warn); border-radius: 8px; padding: 0.75rem 1rem; margin: 0.75rem 0; background: var(--surface); }
    .secret h3 { margin: 0 0 0.5rem; font-size: 1rem; }
    code { overflow-wrap: anywhere; }
    button.danger { border-color: var(--error); color: var(--error); }
  `];

  protected strings = EMBED_STRINGS;

  constructor() {
    super();
    this.clients = null;
    this.clientId = null;
    this.config = null;
    this.accent = '';
    this.font = '';
    this.secret = null;
    this.busy = false;
    this.widgetReady = false;
  }

  protected contextChanged(): void {
    this.secret = null;
    void this.loadClients();
  }

  protected updated(): void {
    const swatch = this.renderRoot.querySelector<HTMLElement>('.swatch');
    if (swatch) swatch.style.background = this.accent || 'transparent';
    // The preview's theme: the page's tokens of the widget (they win over its manifest), set through the CSSOM.
    const chat = this.renderRoot.querySelector<HTMLElement>('platform-chat');
    if (!chat) return;
    if (this.accent) chat.style.setProperty('--platform-chat-accent', this.accent);
    else chat.style.removeProperty('--platform-chat-accent');
    if (this.font) chat.style.setProperty('--platform-chat-font-family', this.font);
    else chat.style.removeProperty('--platform-chat-font-family');
  }

  private async loadClients(): Promise<void> {
    const api = this.context!.api;
    this.clients = null;
    this.config = null;
    const listed = await api.get<{ items: Client[] }>('/api/admin/clients', { query: { limit: 200 } }).catch(() => ({ items: [] }));
    this.clients = listed.items;
    await this.selectClient(listed.items[0]?.id ?? null);
    if (!this.widgetReady) {
      const url = WIDGET_URL;
      // Loaded once from this origin (the page's script-src allows it); the preview still shows its place when it fails.
      await import(/* the widget's hosted element */ url).then(() => { this.widgetReady = true; }, () => undefined);
    }
  }

  private async selectClient(id: number | null): Promise<void> {
    this.clientId = id;
    this.config = null;
    this.secret = null;
    if (id === null) return;
    try {
      const config = await this.context!.api.get<EmbedConfig>(`/api/admin/clients/${id}/embed`);
      if (id !== this.clientId) return;
      this.setConfig(config);
    } catch { /* shown by the shell */ }
  }

  private setConfig(config: EmbedConfig): void {
    this.config = config;
    this.accent = config.theme.accent ?? config.theme.accent_color ?? '';
    this.font = config.theme.font_family ?? '';
  }

  private get client(): Client | undefined { return this.clients?.find((c) => c.id === this.clientId); }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const config = this.config;
    if (!config || this.busy) return;
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const theme: Record<string, string> = { ...config.theme };
    delete theme.accent_color;
    for (const [key, value] of [['accent', this.accent.trim()], ['font_family', this.font.trim()]] as const) {
      if (value) theme[key] = value;
      else delete theme[key];
    }
    const body = {
      enabled: data.get('enabled') === 'on',
      allowed_origins: String(data.get('origins') ?? '').split(/\s+/).map((o) => o.trim()).filter(Boolean),
      default_mode: String(data.get('mode')),
      features: Object.fromEntries(FEATURES.map((f) => [f, data.get(f) === 'on'])),
      theme,
    };
    this.busy = true;
    try {
      this.setConfig(await this.context!.api.put<EmbedConfig>(`/api/admin/clients/${config.client_id}/embed`, body));
      this.context!.announce(this.t.saved);
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private snippet(config: EmbedConfig): string {
    const origin = location.origin;
    return [
      `<script type="module" src="${origin}${WIDGET_URL}"></script>`,
      '<script>',
      '  window.PlatformChat = { getAccessToken: () => fetch(\'/embed-token\', { method: \'POST\' }).then((r) => r.json()).then((b) => b.access_token) };',
      '</script>',
      `<platform-chat api-url="${origin}" client-key="${config.client_key}"></platform-chat>`,
    ].join('\n');
  }

  private async copy(config: EmbedConfig): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.snippet(config));
      this.context!.announce(this.t.copied);
    } catch {
      this.context!.announce(this.t.copyFailed);
    }
  }

  private async credential(action: 'provision' | 'rotate' | 'revoke'): Promise<void> {
    const config = this.config;
    if (!config || this.busy) return;
    const t = this.t;
    const base = `/api/admin/clients/${config.client_id}/embed-credentials`;
    if (action === 'revoke') {
      const shell = STRINGS[this.context!.locale];
      const sure = await confirmDialog({ message: format(t.revokeConfirm, { client: this.client?.name ?? config.client_key }), confirmLabel: t.revoke, cancelLabel: shell.cancel });
      if (!sure) return;
    }
    this.busy = true;
    try {
      if (action === 'revoke') {
        await this.context!.api.delete(base);
        this.secret = null;
        this.context!.announce(t.revoked);
      } else {
        const issued = await this.context!.api.post<Credential>(action === 'provision' ? base : `${base}/rotate`);
        this.secret = { service_account_client_id: issued.service_account_client_id, client_secret: issued.client_secret, token_endpoint: issued.token_endpoint };
        this.context!.announce(action === 'provision' ? t.provisioned : t.rotated);
      }
      const config = await this.context!.api.get<EmbedConfig>(`/api/admin/clients/${this.clientId}/embed`);
      this.config = { ...this.config!, service_account_client_id: config.service_account_client_id, embed_token_credentials_updated_at: config.embed_token_credentials_updated_at };
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private renderSettings(c: EmbedConfig) {
    const t = this.t;
    return html`<section aria-labelledby="settings">
      <h2 id="settings">${t.settings}</h2>
      <form @submit=${(e: SubmitEvent) => this.save(e)}>
        <label class="check"><input type="checkbox" name="enabled" .checked=${c.enabled}> ${t.enabled}</label>
        <div class="field">
          <label for="origins">${t.origins}</label>
          <textarea id="origins" name="origins" aria-describedby="origins-hint" spellcheck="false" .value=${c.allowed_origins.join('\n')}></textarea>
          <span id="origins-hint" class="hint">${t.originsHint}</span>
        </div>
        <div class="field">
          <label for="mode">${t.mode}</label>
          <select id="mode" name="mode">
            <option value="launcher" ?selected=${c.default_mode === 'launcher'}>${t.launcher}</option>
            <option value="inline" ?selected=${c.default_mode === 'inline'}>${t.inline}</option>
          </select>
        </div>
        <fieldset><legend>${t.features}</legend>
          ${FEATURES.map((f) => html`<label class="check"><input type="checkbox" name=${f} .checked=${c.features[f]}> ${t[f]}</label>`)}
        </fieldset>
        <fieldset><legend>${t.theme}</legend>
          <div class="field">
            <label for="accent">${t.accent} <span class="swatch" aria-hidden="true"></span></label>
            <input id="accent" type="text" maxlength="200" aria-describedby="accent-hint" .value=${this.accent}
              @input=${(e: Event) => { this.accent = (e.target as HTMLInputElement).value; }}>
            <span id="accent-hint" class="hint">${t.accentHint}</span>
          </div>
          <div class="field">
            <label for="font">${t.font}</label>
            <input id="font" type="text" maxlength="200" .value=${this.font} @input=${(e: Event) => { this.font = (e.target as HTMLInputElement).value; }}>
          </div>
        </fieldset>
        <button type="submit" class="primary" ?disabled=${this.busy}>${t.save}</button>
      </form>
    </section>`;
  }

  private renderPreview(c: EmbedConfig) {
    const t = this.t;
    return html`<section aria-labelledby="preview">
      <h2 id="preview">${t.preview}</h2>
      <p class="hint">${format(t.previewNote, { origin: location.origin })}</p>
      <div class="preview">${keyed(c.client_key, html`<platform-chat api-url=${location.origin} client-key=${c.client_key} launcher></platform-chat>`)}</div>
    </section>`;
  }

  private renderSnippet(c: EmbedConfig) {
    const t = this.t;
    return html`<section aria-labelledby="snippet">
      <h2 id="snippet">${t.snippet}</h2>
      <p class="hint">${t.snippetNote}</p>
      <pre tabindex="0"><code>${this.snippet(c)}</code></pre>
      <button type="button" @click=${() => this.copy(c)}>${t.copy}</button>
    </section>`;
  }

  private renderCredential(c: EmbedConfig) {
    const t = this.t;
    const s = this.secret;
    const when = c.embed_token_credentials_updated_at
      ? new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(`${c.embed_token_credentials_updated_at.replace(/Z$/, '')}Z`))
      : '';
    return html`<section aria-labelledby="credential">
      <h2 id="credential">${t.credential}</h2>
      <p>${c.service_account_client_id ? format(t.hasCredential, { id: c.service_account_client_id, date: when }) : t.noCredential}</p>
      ${s ? html`<section class="secret" aria-labelledby="secret-title">
        <h3 id="secret-title">${t.secretTitle}</h3>
        <dl>
          <dt>${t.clientId}</dt><dd><code>${s.service_account_client_id}</code></dd>
          <dt>${t.clientSecret}</dt><dd><code>${s.client_secret}</code></dd>
          <dt>${t.tokenEndpoint}</dt><dd><code>${s.token_endpoint}</code></dd>
        </dl>
        <p>${t.secretNote}</p>
      </section>` : nothing}
      <div class="actions">
        ${c.service_account_client_id
          ? html`<button type="button" ?disabled=${this.busy} @click=${() => this.credential('rotate')}>${t.rotate}</button>
            <button type="button" class="danger" ?disabled=${this.busy} @click=${() => this.credential('revoke')}>${t.revoke}</button>`
          : html`<button type="button" class="primary" ?disabled=${this.busy} @click=${() => this.credential('provision')}>${t.provision}</button>`}
      </div>
    </section>`;
  }

  render() {
    const t = this.t;
    if (!this.clients) return html`<p role="status">${t.loading}</p>`;
    if (this.clients.length === 0) return html`<p>${t.noClients}</p>`;
    const c = this.config;
    return html`<div class="field">
        <label for="client">${t.client}</label>
        <select id="client" @change=${(e: Event) => this.selectClient(Number((e.target as HTMLSelectElement).value))}>
          ${this.clients.map((client) => html`<option value=${String(client.id)} ?selected=${client.id === this.clientId}>${client.name} (${client.client_key})</option>`)}
        </select>
      </div>
      ${c ? html`<div class="grid">${this.renderSettings(c)}<div>${this.renderPreview(c)}${this.renderSnippet(c)}</div></div>${this.renderCredential(c)}`
        : html`<p role="status">${t.loading}</p>`}`;
  }
}
