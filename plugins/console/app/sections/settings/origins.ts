// <console-settings-origins>: the tenant's public origins (GET/PUT
// /api/admin/public-origins), the websites whose pages may call the
// citizens' routes (report element, forms, Open311) from a browser. One
// origin per line; the API normalizes them and refuses a bad one by name.
import { html } from 'lit';
import type { SectionContext } from '../contract.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import { settingsStyles } from './members.ts';
import { SETTINGS_STRINGS, type SettingsStrings } from './strings.ts';

export class SettingsOrigins extends TenantSection<SettingsStrings> {
  static properties = { origins: { state: true }, busy: { state: true } };
  declare origins: string[] | null;
  declare busy: boolean;
  static styles = settingsStyles;
  protected strings = SETTINGS_STRINGS;

  constructor() {
    super();
    this.origins = null;
    this.busy = false;
  }

  protected contextChanged(context: SectionContext): void {
    this.origins = null;
    void context.api.get<{ origins: string[] }>('/api/admin/public-origins').catch(() => null).then((found) => { this.origins = found?.origins ?? []; });
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const text = String(new FormData(event.target as HTMLFormElement).get('origins') ?? '');
    const origins = text.split('\n').map((line) => line.trim()).filter(Boolean);
    this.busy = true;
    try {
      this.origins = (await this.context!.api.put<{ origins: string[] }>('/api/admin/public-origins', { origins })).origins;
      this.context!.announce(this.origins.length ? this.t.originsSaved : this.t.originsCleared);
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  render() {
    if (!this.origins) return html`<section aria-busy="true"><h2>${this.t.origins}</h2></section>`;
    return html`<section aria-labelledby="origins-heading">
      <h2 id="origins-heading">${this.t.origins}</h2>
      <p>${this.t.originsIntro}</p>
      <form aria-label=${this.t.origins} @submit=${this.save}>
        <label for="origins">${this.t.originsField}</label>
        <textarea id="origins" name="origins" rows="4" aria-describedby="origins-hint" .value=${this.origins.join('\n')}></textarea>
        <p id="origins-hint" class="hint">${this.t.originsHint}</p>
        <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy}>${this.t.saveOrigins}</button></div>
      </form>
    </section>`;
  }
}

if (!customElements.get('console-settings-origins')) customElements.define('console-settings-origins', SettingsOrigins);
