// <platform-console>: the console's shell, in the page's own DOM. Sign-in
// (an access token, a one-time link's code, or the OIDC issuer), then the
// header (tenant picker, language, sign out), the nav of the sections the
// person's roles allow, and the current section's page: its h1 and its
// element, loaded from its own chunk. Routing is by URL (/console/<key>,
// the history API).
import { LitElement, html, nothing } from 'lit';
import { ApiClient, ApiError } from './client.ts';
import { format, initialLocale, LOCALES, rememberLocale, STRINGS, type Locale, type Strings } from './i18n.ts';
import { completeOidc, startOidc, type OidcConfig } from './oidc.ts';
import { clearSession, loadSession, saveSession, type StoredSession } from './session.ts';
import { allows, SECTION_ORDER, type Me, type Roles, type SectionContext, type SectionElement, type SectionEntry } from './sections/contract.ts';
import { SECTIONS } from './sections/registry.ts';
import './ui/live-region.ts';
import type { LiveRegion } from './ui/live-region.ts';

const BASE = '/console';
const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', pt: 'Português' };
const ORDERED: SectionEntry[] = [...SECTIONS].sort((a, b) => SECTION_ORDER.indexOf(a.key) - SECTION_ORDER.indexOf(b.key));

type Phase = 'starting' | 'signed-out' | 'signing-in' | 'signed-in';
interface Tenant { id: string; roles: Roles }

export class PlatformConsole extends LitElement {
  static properties = {
    phase: { state: true }, locale: { state: true }, me: { state: true }, tenants: { state: true }, tenant: { state: true },
    current: { state: true }, menuOpen: { state: true }, error: { state: true }, notice: { state: true }, oidc: { state: true },
  };
  declare phase: Phase;
  declare locale: Locale;
  declare me: Me | null;
  declare tenants: Tenant[];
  declare tenant: string | null;
  declare current: SectionEntry | null;
  declare menuOpen: boolean;
  declare error: string;
  declare notice: string;
  declare oidc: OidcConfig | null;
  private session: StoredSession | null = null;
  private readonly elements = new Map<string, SectionElement>();
  private context: SectionContext | undefined;
  private focusHeading = false;
  readonly api: ApiClient;

  constructor() {
    super();
    this.phase = 'starting';
    this.locale = initialLocale();
    this.me = null;
    this.tenants = [];
    this.tenant = null;
    this.current = null;
    this.menuOpen = false;
    this.error = '';
    this.notice = '';
    this.oidc = null;
    this.api = new ApiClient({
      token: () => this.session?.token ?? null,
      tenant: () => this.tenant,
      onError: (error) => this.live()?.showAlert(format(this.strings.requestFailed, { message: error.message })),
      onUnauthorized: () => this.signOut(this.strings.sessionExpired),
      networkMessage: () => this.strings.networkError,
    });
  }

  get strings(): Strings { return STRINGS[this.locale]; }

  protected createRenderRoot() { return this; }

  connectedCallback(): void {
    super.connectedCallback();
    document.documentElement.lang = this.locale;
    addEventListener('popstate', this.onPopState);
    void this.start();
  }

  disconnectedCallback(): void {
    removeEventListener('popstate', this.onPopState);
    super.disconnectedCallback();
  }

  private readonly onPopState = () => { if (this.phase === 'signed-in') void this.route(location.pathname, false); };

  private live(): LiveRegion | null { return this.querySelector('console-live'); }

  /** Signs in from what the address carries (a link's code, the OIDC callback) or the tab's session; else the sign-in page. */
  private async start(): Promise<void> {
    void this.api.get<{ oidc: OidcConfig | null }>('/api/console/config', { quiet: true }).then((c) => { this.oidc = c.oidc; }, () => undefined);
    const link = /(?:^#|&)link=([A-Za-z0-9_-]+)/.exec(location.hash)?.[1];
    if (link) {
      // The code leaves the address bar (and the history entry) before anything else happens.
      history.replaceState(null, '', `${BASE}/`);
      this.phase = 'signing-in';
      try {
        const issued = await this.api.post<{ access_token: string }>('/api/console/link/exchange', { code: link }, { quiet: true });
        if (await this.signInWith(issued.access_token, 'link')) return;
      } catch { /* refused below */ }
      this.phase = 'signed-out';
      this.error = this.strings.linkRefused;
      return;
    }
    if (location.pathname === `${BASE}/callback`) {
      const params = new URLSearchParams(location.search);
      history.replaceState(null, '', `${BASE}/`);
      this.phase = 'signing-in';
      const issuer = this.issuerName();
      try {
        for (const token of await completeOidc(params)) if (await this.signInWith(token, 'oidc')) return;
        throw new Error(this.strings.sessionExpired);
      } catch (err) {
        this.phase = 'signed-out';
        this.error = format(this.strings.oidcFailed, { issuer, message: (err as Error).message });
        return;
      }
    }
    const stored = loadSession();
    if (stored && (await this.signInWith(stored.token, stored.method, stored.tenant))) return;
    clearSession();
    this.phase = 'signed-out';
  }

  private issuerName(): string {
    const issuer = this.oidc?.issuer;
    if (!issuer) return 'OIDC';
    try { return new URL(issuer).host; } catch { return issuer; }
  }

  /** Validates `token` with GET /api/me; on success the person is signed in (true). */
  private async signInWith(token: string, method: StoredSession['method'], tenant: string | null = null): Promise<boolean> {
    const probe = new ApiClient({ token: () => token, tenant: () => null, onError: () => undefined, onUnauthorized: () => undefined, networkMessage: () => this.strings.networkError });
    let me: Me;
    try {
      me = await probe.get<Me>('/api/me', { quiet: true });
    } catch (err) {
      this.error = err instanceof ApiError && err.status === 0 ? err.message : format(this.strings.tokenRefused, { message: (err as Error).message });
      return false;
    }
    let tenants: Tenant[] = (me.tenants ?? []).map((t) => ({ id: t.id, roles: t.roles }));
    if (me.tenants === null) {
      // The super-admin (or a service token) reaches every tenant with every role.
      const all = await probe.get<{ items: { id: string }[] }>('/api/admin/tenants', { query: { limit: 500 }, quiet: true }).catch(() => ({ items: [] }));
      tenants = all.items.map((t) => ({ id: t.id, roles: '*' as const }));
    }
    this.session = { token, method, tenant: null };
    this.me = me;
    this.tenants = tenants;
    this.tenant = tenants.find((t) => t.id === tenant)?.id ?? me.tenant_id ?? tenants[0]?.id ?? null;
    this.saveSession();
    this.error = '';
    this.notice = '';
    this.phase = 'signed-in';
    await this.route(location.pathname, false);
    return true;
  }

  private saveSession(): void {
    if (!this.session) return;
    this.session.tenant = this.tenant;
    saveSession(this.session);
  }

  private signOut(notice: string): void {
    clearSession();
    this.session = null;
    this.me = null;
    this.tenants = [];
    this.tenant = null;
    this.current = null;
    this.elements.clear();
    this.context = undefined;
    this.phase = 'signed-out';
    this.notice = notice;
    history.replaceState(null, '', `${BASE}/`);
    document.title = this.strings.signInTitle;
  }

  private roles(): Roles {
    if (this.me?.tenants === null) return '*';
    return this.tenants.find((t) => t.id === this.tenant)?.roles ?? [];
  }

  private visible(): SectionEntry[] {
    const roles = this.roles();
    return ORDERED.filter((section) => allows(section.roles, roles));
  }

  /** Shows the section of `path` (or the first the roles allow), loading its chunk. */
  private async route(path: string, push: boolean): Promise<void> {
    const key = path.startsWith(`${BASE}/`) ? path.slice(BASE.length + 1).split('/')[0] : '';
    const visible = this.visible();
    const section = visible.find((s) => s.key === key) ?? visible[0] ?? null;
    // A section's own sub-path (`/console/occurrences/42`) is kept: the section reads it.
    const rest = section?.key === key ? path.slice(`${BASE}/${key}`.length) : '';
    const target = section ? `${BASE}/${section.key}${/^(\/[A-Za-z0-9_-]{1,128}){1,4}$/.test(rest) ? rest : ''}` : `${BASE}/`;
    if (push && target !== location.pathname) history.pushState(null, '', target);
    else if (target !== location.pathname) history.replaceState(null, '', target);
    this.menuOpen = false;
    this.current = section;
    if (!section) return;
    document.title = `${section.labels[this.locale]} · ${this.strings.product}`;
    if (!this.elements.has(section.key)) {
      const tag = `console-section-${section.key}`;
      if (!customElements.get(tag)) customElements.define(tag, (await section.load()).default);
      this.elements.set(section.key, document.createElement(tag) as SectionElement);
    }
    this.context = undefined;
    this.requestUpdate();
    this.live()?.announce(format(this.strings.loaded, { section: section.labels[this.locale] }));
  }

  private sectionContext(): SectionContext {
    this.context ??= {
      api: this.api, locale: this.locale, tenant: this.tenant, roles: this.roles(), me: this.me!,
      announce: (message) => this.live()?.announce(message),
    };
    return this.context;
  }

  private navigate(event: MouseEvent, key: string): void {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    this.focusHeading = true;
    this.live()?.clearAlert();
    void this.route(`${BASE}/${key}`, true);
  }

  private setLocale(locale: Locale): void {
    this.locale = locale;
    rememberLocale(locale);
    document.documentElement.lang = locale;
    this.context = undefined;
    if (this.current) document.title = `${this.current.labels[locale]} · ${this.strings.product}`;
  }

  private setTenant(tenant: string): void {
    this.tenant = tenant;
    this.saveSession();
    this.context = undefined;
    this.live()?.clearAlert();
    void this.route(location.pathname, false);
  }

  private async submitToken(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const input = this.querySelector<HTMLInputElement>('#access-token')!;
    const token = input.value.trim();
    if (!token) return;
    this.phase = 'signing-in';
    this.notice = '';
    const ok = await this.signInWith(token, 'token');
    input.value = '';
    if (!ok) {
      this.phase = 'signed-out';
      await this.updateComplete;
      this.querySelector<HTMLInputElement>('#access-token')?.focus();
    }
  }

  private async signInWithOidc(): Promise<void> {
    if (!this.oidc) return;
    try {
      await startOidc(this.oidc);
    } catch (err) {
      this.error = format(this.strings.oidcFailed, { issuer: this.issuerName(), message: (err as Error).message });
    }
  }

  protected updated(): void {
    if (this.phase === 'signed-in' && this.current) {
      const element = this.elements.get(this.current.key);
      if (element && element.context !== this.sectionContext()) element.context = this.sectionContext();
      if (this.focusHeading) {
        this.focusHeading = false;
        this.querySelector<HTMLElement>('main h1')?.focus();
      }
    }
  }

  private skipLink() {
    return html`<a class="skip" href="#main" @click=${(e: Event) => { e.preventDefault(); this.querySelector<HTMLElement>('#main')?.focus(); }}>${this.strings.skipToContent}</a>`;
  }

  private languagePicker() {
    return html`<label class="field"><span>${this.strings.language}</span>
      <select @change=${(e: Event) => this.setLocale((e.target as HTMLSelectElement).value as Locale)}>
        ${LOCALES.map((l) => html`<option value=${l} ?selected=${l === this.locale} lang=${l}>${LANGUAGE_NAMES[l]}</option>`)}
      </select></label>`;
  }

  render() {
    const s = this.strings;
    if (this.phase === 'starting') return html`<p class="starting" role="status">${s.loading}</p>`;
    if (this.phase !== 'signed-in') return this.renderSignIn();
    const sections = this.visible();
    const current = this.current;
    return html`${this.skipLink()}
      <header class="bar">
        <span class="product">${s.product}</span>
        <button type="button" class="menu" aria-expanded=${this.menuOpen ? 'true' : 'false'} aria-controls="console-nav" @click=${() => { this.menuOpen = !this.menuOpen; }}>${s.menu}</button>
        <div class="tools">
          ${this.tenants.length > 1 ? html`<label class="field"><span>${s.tenant}</span>
            <select @change=${(e: Event) => this.setTenant((e.target as HTMLSelectElement).value)}>
              ${this.tenants.map((t) => html`<option value=${t.id} ?selected=${t.id === this.tenant}>${t.id}</option>`)}
            </select></label>` : nothing}
          ${this.languagePicker()}
          <span class="who">${format(s.signedInAs, { sub: this.me?.sub ?? '' })}</span>
          <button type="button" @click=${() => this.signOut(s.signedOutNotice)}>${s.signOut}</button>
        </div>
      </header>
      <div class="layout">
        <nav id="console-nav" aria-label=${s.sections} class=${this.menuOpen ? 'open' : ''}>
          <ul>${sections.map((section) => html`<li><a href="${BASE}/${section.key}" aria-current=${section === current ? 'page' : 'false'}
            @click=${(e: MouseEvent) => this.navigate(e, section.key)}>${section.labels[this.locale]}</a></li>`)}</ul>
        </nav>
        <main id="main" tabindex="-1">
          <console-live .dismissLabel=${s.dismiss}></console-live>
          ${current
            ? html`<h1 tabindex="-1">${current.labels[this.locale]}</h1>${this.elements.get(current.key) ?? html`<p role="status">${s.loading}</p>`}`
            : html`<h1 tabindex="-1">${s.product}</h1><p>${this.tenants.length ? s.noSections : s.noTenant}</p>`}
        </main>
      </div>`;
  }

  private renderSignIn() {
    const s = this.strings;
    const busy = this.phase === 'signing-in';
    return html`${this.skipLink()}
      <header class="bar"><span class="product">${s.product}</span><div class="tools">${this.languagePicker()}</div></header>
      <main id="main" tabindex="-1" class="sign-in">
        <h1>${s.signInTitle}</h1>
        <form @submit=${(e: SubmitEvent) => this.submitToken(e)}>
          <label for="access-token">${s.accessToken}</label>
          <input id="access-token" name="access-token" type="password" autocomplete="off" spellcheck="false" required ?disabled=${busy}>
          <button type="submit" class="primary" ?disabled=${busy}>${s.signIn}</button>
        </form>
        ${this.oidc ? html`<p><button type="button" class="oidc" ?disabled=${busy} @click=${() => this.signInWithOidc()}>${format(s.signInWith, { issuer: this.issuerName() })}</button></p>` : nothing}
        <div role="alert">${this.error ? html`<p class="error">${this.error}</p>` : nothing}</div>
        <div role="status">${busy ? s.signingIn : this.notice}</div>
      </main>`;
  }
}
