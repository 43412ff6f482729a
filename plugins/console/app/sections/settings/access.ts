// <console-settings-access>: the tenant's clients (GET/POST/DELETE
// /api/admin/clients) and API keys (GET/POST/DELETE /api/admin/api-keys). A
// new key is shown once, in a panel to copy it from, and forgotten when the
// panel is closed; deleting a client and revoking a key ask first.
import { html, nothing } from 'lit';
import { TenantSection } from '../../ui/tenant-section.ts';
import { format } from '../../i18n.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { settingsStyles } from './members.ts';
import { SETTINGS_STRINGS, type SettingsStrings } from './strings.ts';

interface Client { id: number; client_key: string; name: string; created_at: string }
interface ApiKey { id: number; name: string; client_id: number; key_prefix: string; created_at: string; last_used_at: string | null; revoked_at: string | null; key?: string }

export class SettingsAccess extends TenantSection<SettingsStrings> {
  static properties = {
    clients: { state: true }, keys: { state: true }, created: { state: true }, copied: { state: true }, busy: { state: true },
  };
  declare clients: Client[] | null;
  declare keys: ApiKey[] | null;
  /** The key just created: its secret lives here only until the panel is closed. */
  declare created: ApiKey | null;
  declare copied: boolean;
  declare busy: boolean;
  static styles = settingsStyles;

  protected strings = SETTINGS_STRINGS;

  constructor() {
    super();
    this.clients = null;
    this.keys = null;
    this.created = null;
    this.copied = false;
    this.busy = false;
  }

  protected contextChanged(): void {
    this.created = null;
    void this.load();
  }

  private async load(): Promise<void> {
    const api = this.context?.api;
    if (!api) return;
    const [clients, keys] = await Promise.all([
      api.get<{ items: Client[] }>('/api/admin/clients', { query: { limit: 500 } }).catch(() => null),
      api.get<{ items: ApiKey[] }>('/api/admin/api-keys').catch(() => null),
    ]);
    this.clients = clients?.items ?? [];
    this.keys = keys?.items ?? [];
  }

  private date(value: string | null): string {
    return value ? new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value)) : this.t.never;
  }

  private async createClient(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    const name = String(new FormData(form).get('name')).trim();
    this.busy = true;
    try {
      await this.context!.api.post('/api/admin/clients', { name });
      form.reset();
      this.context!.announce(format(this.t.clientCreated, { name }));
      await this.load();
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private async deleteClient(client: Client): Promise<void> {
    const t = this.t;
    if (!(await confirmDialog({ message: format(t.deleteClientConfirm, { name: client.name }), confirmLabel: t.delete, cancelLabel: t.cancel }))) return;
    try {
      await this.context!.api.delete(`/api/admin/clients/${client.id}`);
      this.context!.announce(format(t.clientDeleted, { name: client.name }));
    } catch { /* shown */ }
    await this.load();
  }

  private async createKey(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    const data = new FormData(form);
    const name = String(data.get('name')).trim();
    this.busy = true;
    try {
      this.created = await this.context!.api.post<ApiKey>('/api/admin/api-keys', { name, client_id: Number(data.get('client_id')) });
      this.copied = false;
      form.reset();
      this.context!.announce(format(this.t.keyCreated, { name }));
      await this.load();
      this.renderRoot.querySelector<HTMLInputElement>('#new-key')?.focus();
    } catch { /* shown */ } finally {
      this.busy = false;
    }
  }

  private async copy(): Promise<void> {
    if (!this.created?.key) return;
    try {
      await navigator.clipboard.writeText(this.created.key);
      this.copied = true;
      this.context!.announce(this.t.copied);
    } catch {
      this.renderRoot.querySelector<HTMLInputElement>('#new-key')?.select();
    }
  }

  private async revoke(key: ApiKey): Promise<void> {
    const t = this.t;
    if (!(await confirmDialog({ message: format(t.revokeConfirm, { name: key.name }), confirmLabel: t.revokeLabel, cancelLabel: t.cancel }))) return;
    try {
      await this.context!.api.delete(`/api/admin/api-keys/${key.id}`);
      this.context!.announce(format(t.revoked, { name: key.name }));
    } catch { /* shown */ }
    await this.load();
  }

  private renderClients() {
    const t = this.t;
    const columns: Column<Client>[] = [
      { label: t.name, cell: (c) => c.name },
      { label: t.key, cell: (c) => html`<code>${c.client_key}</code>` },
      { label: t.created, cell: (c) => this.date(c.created_at) },
      { label: t.actions, cell: (c) => html`<div class="row-actions"><button type="button" class="danger" @click=${() => this.deleteClient(c)}>${format(t.deleteClient, { name: c.name })}</button></div>` },
    ];
    return html`<section aria-labelledby="clients-title">
      <h2 id="clients-title">${t.clients}</h2>
      <p class="muted">${t.clientsIntro}</p>
      ${this.clients ? html`<console-table .caption=${t.clients} .empty=${t.noClients} .columns=${columns} .rows=${this.clients}></console-table>` : html`<p>${t.loading}</p>`}
      <h3 id="create-client-title">${t.createClient}</h3>
      <form novalidate aria-labelledby="create-client-title" @submit=${(e: Event) => this.createClient(e)}>
        <div class="field"><label for="client-name">${t.name}<span class="req" aria-hidden="true">*</span></label>
          <input id="client-name" name="name" required maxlength="200" autocomplete="off"></div>
        <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy}>${t.create}</button></div>
      </form>
    </section>`;
  }

  private renderCreated() {
    const key = this.created;
    if (!key?.key) return nothing;
    const t = this.t;
    return html`<div class="panel" role="group" aria-labelledby="new-key-title">
      <h3 id="new-key-title">${format(t.newKey, { name: key.name })}</h3>
      <p class="hint" id="new-key-hint">${t.newKeyHint}</p>
      <div class="field"><label for="new-key">${t.theKey}</label>
        <input id="new-key" readonly .value=${key.key} aria-describedby="new-key-hint" @focus=${(e: Event) => (e.target as HTMLInputElement).select()}></div>
      <div class="actions"><button type="button" @click=${() => this.copy()}>${this.copied ? t.copied : t.copy}</button>
        <button type="button" class="primary" @click=${() => { this.created = null; }}>${t.done}</button></div>
    </div>`;
  }

  private renderKeys() {
    const t = this.t;
    const clientName = (id: number) => this.clients?.find((c) => c.id === id)?.name ?? String(id);
    const columns: Column<ApiKey>[] = [
      { label: t.name, cell: (k) => k.name },
      { label: t.client, cell: (k) => clientName(k.client_id) },
      { label: t.prefix, cell: (k) => html`<code>${k.key_prefix}…</code>` },
      { label: t.lastUsed, cell: (k) => this.date(k.last_used_at) },
      { label: t.state, cell: (k) => html`<console-status tone=${k.revoked_at ? 'neutral' : 'ok'}>${k.revoked_at ? t.revokedKey : t.activeKey}</console-status>` },
      {
        label: t.actions,
        cell: (k) => k.revoked_at ? '' : html`<div class="row-actions"><button type="button" class="danger" @click=${() => this.revoke(k)}>${format(t.revoke, { name: k.name })}</button></div>`,
      },
    ];
    return html`<section aria-labelledby="keys-title">
      <h2 id="keys-title">${t.apiKeys}</h2>
      <p class="muted">${t.apiKeysIntro}</p>
      ${this.renderCreated()}
      ${this.keys ? html`<console-table tabindex="0" role="group" aria-label=${t.apiKeys} .caption=${t.apiKeys} .empty=${t.noKeys} .columns=${columns} .rows=${this.keys}></console-table>` : html`<p>${t.loading}</p>`}
      <h3 id="create-key-title">${t.createKey}</h3>
      <form novalidate aria-labelledby="create-key-title" @submit=${(e: Event) => this.createKey(e)}>
        <div class="field"><label for="key-name">${t.name}<span class="req" aria-hidden="true">*</span></label>
          <input id="key-name" name="name" required maxlength="200" autocomplete="off"></div>
        <div class="field"><label for="key-client">${t.client}<span class="req" aria-hidden="true">*</span></label>
          <select id="key-client" name="client_id" required>${(this.clients ?? []).map((c) => html`<option value=${String(c.id)}>${c.name}</option>`)}</select></div>
        <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy || !this.clients?.length}>${t.create}</button></div>
      </form>
    </section>`;
  }

  render() {
    return html`${this.renderClients()}${this.renderKeys()}`;
  }
}
if (!customElements.get('console-settings-access')) customElements.define('console-settings-access', SettingsAccess);
