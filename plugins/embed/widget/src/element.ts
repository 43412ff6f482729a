// <platform-chat>: the launcher (or the inline frame) and the options. It stays
// small: the chat panel (Markdown, conversations, uploads) is a chunk imported
// only when the panel is first shown.
import { LitElement, html, nothing, unsafeCSS, type PropertyDeclarations } from 'lit';
import tokensCss from './styles/tokens.css';
import launcherCss from './styles/launcher.css';
import { ATTRIBUTES, TOKEN_LIKE_ATTRIBUTES, attributeValue, resolveOptions, missingOption, type PlatformChatOptions, type TokenProvider } from './options.ts';
import { STRINGS, resolveLocale } from './i18n.ts';
import { ApiError, ChatClient } from './client.ts';
import type { Manifest } from './types.ts';
import type { ChatPanel } from './panel.ts';

const bool = { fromAttribute: (value: string | null) => attributeValue('launcher', value) as boolean | undefined };

const CHAT_ICON = html`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>`;
const CLOSE_ICON = html`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" aria-hidden="true"><path d="M18 6 6 18M6 6l12 12"/></svg>`;

/** Manifest theme keys (`font_family`, `accent`, `accent_color`, …) as the private fallbacks of the tokens. */
const THEME_TOKENS = ['bg', 'surface', 'text', 'muted', 'border', 'accent', 'on-accent'];

export class PlatformChatElement extends LitElement {
  static properties: PropertyDeclarations = {
    apiUrl: { attribute: 'api-url' },
    clientKey: { attribute: 'client-key' },
    selectedClientId: { attribute: 'selected-client-id' },
    tokenProvider: { attribute: 'token-provider' },
    tenant: { attribute: 'tenant' },
    title: { attribute: 'title' },
    welcomeMessage: { attribute: 'welcome-message' },
    placeholder: { attribute: 'placeholder' },
    locale: { attribute: 'locale' },
    resumeHistory: { attribute: 'resume-history', converter: bool },
    sessionSwitching: { attribute: 'session-switching', converter: bool },
    allowFeedback: { attribute: 'allow-feedback', converter: bool },
    allowUploads: { attribute: 'allow-uploads', converter: bool },
    markEmbedRequests: { attribute: 'mark-embed-requests', converter: bool },
    launcher: { attribute: 'launcher', converter: bool },
    placement: { attribute: 'placement', reflect: true },
    defaultOpen: { attribute: 'default-open', converter: bool },
    zIndex: { attribute: 'z-index' },
    stylesheetUrl: { attribute: 'stylesheet-url' },
    open: { state: true },
    manifest: { state: true },
    failure: { state: true },
  };
  static styles = [unsafeCSS(tokensCss), unsafeCSS(launcherCss)];

  declare apiUrl: string | undefined;
  declare clientKey: string | undefined;
  declare selectedClientId: string | number | undefined;
  declare tokenProvider: string | undefined;
  declare tenant: string | undefined;
  declare title: string;
  declare welcomeMessage: string | undefined;
  declare placeholder: string | undefined;
  declare locale: string | undefined;
  declare resumeHistory: boolean | undefined;
  declare sessionSwitching: boolean | undefined;
  declare allowFeedback: boolean | undefined;
  declare allowUploads: boolean | undefined;
  declare markEmbedRequests: boolean | undefined;
  declare launcher: boolean | undefined;
  declare placement: 'bottom-right' | 'bottom-left' | undefined;
  declare defaultOpen: boolean | undefined;
  declare zIndex: string | number | undefined;
  declare stylesheetUrl: string | undefined;
  /** Props only: never attributes (a function, and tokens never go through HTML). */
  declare getAccessToken: TokenProvider | undefined;
  declare tokenProviders: Record<string, TokenProvider> | undefined;
  declare hostManifest: Manifest | undefined;
  declare autoStart: boolean | undefined;
  declare open: boolean;
  declare manifest: Manifest | null;
  declare failure: { message: string } | null;

  panel: ChatPanel | null = null;
  private panelLoading: Promise<void> | null = null;
  private started = false;

  constructor() {
    super();
    this.open = false;
    this.manifest = null;
    this.failure = null;
  }

  /** The options as given (props and attributes), for the panel and the wrappers. */
  get options(): PlatformChatOptions {
    const options: Record<string, unknown> = {};
    for (const name of [...Object.values(ATTRIBUTES), 'getAccessToken', 'tokenProviders', 'hostManifest', 'autoStart'] as (keyof PlatformChatOptions)[]) {
      const value = (this as unknown as Record<string, unknown>)[name];
      if (value !== undefined && value !== null && value !== '') options[name] = value;
    }
    return options as PlatformChatOptions;
  }

  get resolved() {
    return resolveOptions(this.options, this.manifest, document.documentElement.lang);
  }

  get strings() {
    return STRINGS[resolveLocale(this.locale, document.documentElement.lang)];
  }

  get isLauncher(): boolean {
    return this.resolved.launcher;
  }

  connectedCallback(): void {
    super.connectedCallback();
    for (const name of TOKEN_LIKE_ATTRIBUTES) {
      if (this.hasAttribute(name)) console.warn(`<platform-chat>: the "${name}" attribute is ignored: tokens must never be passed through HTML attributes; use window.PlatformChat.getAccessToken or the getAccessToken prop.`);
    }
    this.addEventListener('keydown', this.onKeydown);
    if (!this.started) void this.start();
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('keydown', this.onKeydown);
    this.panel?.dispose();
  }

  client(): ChatClient {
    const resolved = this.resolved;
    return new ChatClient({ apiUrl: resolved.apiUrl, clientKey: resolved.clientKey, tenant: resolved.tenant, markEmbedRequests: resolved.markEmbedRequests, tokenProvider: resolved.tokenProvider });
  }

  private async start(): Promise<void> {
    this.started = true;
    // Props set right after insertion (framework wrappers set them in their mount hooks) land before this task.
    await new Promise((resolve) => setTimeout(resolve));
    const missing = missingOption(this.options);
    if (missing) {
      this.failure = { message: this.strings.errorConfig.replace('{what}', missing) };
      if (!this.isLauncher) void this.loadPanel();
      return;
    }
    try {
      this.manifest = this.hostManifest ?? await this.client().manifest();
      this.applyTheme(this.manifest.theme ?? {});
    } catch (error) {
      this.failure = { message: this.describe(error) };
    }
    if (!this.isLauncher || this.defaultOpen) void this.show();
  }

  describe(error: unknown): string {
    const s = this.strings;
    if (!(error instanceof ApiError)) return s.errorGeneric.replace('{message}', String((error as Error)?.message ?? error));
    if (error.status === 0) return s.errorOrigin + ' ' + s.errorNetwork;
    if (error.status === 403) return s.errorOrigin;
    if (error.status === 404) return s.errorClient;
    if (error.status === 401) return s.errorAuth;
    if (error.status === 429) return s.errorBusy;
    return s.errorGeneric.replace('{message}', error.message);
  }

  private applyTheme(theme: Record<string, unknown>): void {
    const font = theme.font_family ?? theme.font;
    if (typeof font === 'string') this.style.setProperty('--_m-font', font);
    for (const token of THEME_TOKENS) {
      const key = token.replace('-', '_');
      const value = theme[key] ?? theme[`${key}_color`];
      if (typeof value === 'string') this.style.setProperty(`--_m-${token}`, value);
    }
  }

  /** Shows the panel, loading its chunk the first time. */
  async show(): Promise<void> {
    this.open = true;
    await this.loadPanel();
    await this.updateComplete;
    this.panel?.focusComposer();
  }

  hide(): void {
    this.open = false;
    this.panel?.closeConversations();
    void this.updateComplete.then(() => (this.renderRoot.querySelector('.launcher') as HTMLElement | null)?.focus());
  }

  private loadPanel(): Promise<void> {
    this.panelLoading ??= import('./panel.ts').then(({ ChatPanel }) => {
      this.panel = new ChatPanel(this);
      this.requestUpdate();
      return this.panel.start();
    });
    return this.panelLoading;
  }

  private onKeydown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    if (this.panel?.closeConversations()) event.stopPropagation();
    else if (this.isLauncher && this.open) {
      event.stopPropagation();
      this.hide();
    }
  };

  private toggle = () => (this.open ? this.hide() : void this.show());

  render() {
    const s = this.strings;
    const launcher = this.isLauncher;
    this.dataset.mode = launcher ? 'launcher' : 'inline';
    if (this.zIndex !== undefined && this.zIndex !== '') this.style.setProperty('--_z', String(this.zIndex));
    const stylesheet = this.stylesheetUrl || window.PlatformChat?.stylesheetUrl;
    const body = this.panel ? this.panel.render() : html`<div class="loading" role="status">${s.loading}</div>`;
    const content = html`${stylesheet ? html`<link rel="stylesheet" href=${stylesheet}>` : nothing}${body}`;
    if (!launcher) return html`<div class="inline" part="panel">${content}</div>`;
    return html`
      <div class="floating" part="panel" id="panel" role="dialog" aria-label=${this.title || s.title} ?hidden=${!this.open}>${this.open || this.panel ? content : nothing}</div>
      <button class="launcher" part="launcher" type="button" aria-controls="panel" aria-expanded=${this.open ? 'true' : 'false'}
        aria-label=${this.open ? s.closeChat : s.openChat} @click=${this.toggle}>${this.open ? CLOSE_ICON : CHAT_ICON}</button>`;
  }
}

export function definePlatformChat(name = 'platform-chat'): void {
  if (!customElements.get(name)) customElements.define(name, class extends PlatformChatElement {});
}

declare global {
  interface HTMLElementTagNameMap { 'platform-chat': PlatformChatElement }
}
