// The Chat section: a playground that is the embeddable chat widget itself
// (/embed/v1/platform-chat.ce.js, same origin, so the console's CSP allows
// it) on the tenant's default client, beside the citations of its last
// answer with their verification. GET /api/embed/playground gives the client
// and its manifest; the widget chats with the signed-in person's own token
// and tenant, without the embed marker (plugins/embed/README.md, "The
// console's playground"). When the widget says an answer is stored
// (platform-chat-answer), the answer's citation ids are read from the stored
// message and their records from the citations REST API. Below it, for the
// tenant's admins, its conversations (conversations.ts).
import { LitElement, css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/status-badge.ts';
import type { Tone } from '../../ui/status-badge.ts';
import { CHAT_STRINGS, type ChatStrings } from './strings.ts';
import './conversations.ts';

interface Playground { client_id: number; client_key: string; manifest: Record<string, unknown> }
interface StoredMessage { id: number; tool_metadata?: { citations?: { citation_id?: string }[] } | null }
interface Citation {
  id: string; document_name: string; page: number | null; section: string | null; quoted_text: string | null;
  verification_status: 'verified' | 'failed' | 'pending' | 'unverified' | 'out_of_provenance'; match_type: string | null; match_score: number | null;
}
interface Answered { session_id: string; message_id: number }
type WidgetElement = HTMLElement & Record<string, unknown>;

const WIDGET = '/embed/v1/platform-chat.ce.js';
const TONES: Record<Citation['verification_status'], Tone> = { verified: 'ok', failed: 'error', pending: 'neutral', unverified: 'neutral', out_of_provenance: 'warn' };

/** Loads the widget's element from the platform (kept out of the console's bundle: it is the published widget). */
function loadWidget(): Promise<unknown> {
  const url = new URL(WIDGET, location.origin).href;
  return import(/* @vite-ignore */ url);
}

export default class ChatSection extends LitElement {
  static properties = {
    context: { attribute: false },
    playground: { state: true }, failure: { state: true }, citations: { state: true },
  };
  declare context: SectionContext | undefined;
  declare playground: Playground | null;
  declare failure: string | null;
  /** null until an answer came. */
  declare citations: Citation[] | null;
  private loadedFor: SectionContext | undefined;
  private widget: WidgetElement | null = null;

  static styles = [shared, css`
    .layout { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1.25rem; align-items: start; }
    @media (max-width: 900px) { .layout { grid-template-columns: minmax(0, 1fr); } }
    .frame { height: 34rem; border: 1px solid var(--border); border-radius: 8px; overflow: hidden; background: var(--surface); }
    .frame platform-chat { display: block; height: 100%; }
    .quote { white-space: pre-wrap; word-break: break-word; }
    ol.citations { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.75rem; }
    h3 { font-size: 1rem; margin: 0 0 0.5rem; }
  `];

  constructor() {
    super();
    this.playground = null;
    this.failure = null;
    this.citations = null;
  }

  private get t(): ChatStrings { return CHAT_STRINGS[this.context?.locale ?? 'en']; }

  protected willUpdate(): void {
    const context = this.context;
    if (!context) return;
    if (!this.loadedFor || this.loadedFor.tenant !== context.tenant) {
      this.loadedFor = context;
      this.widget?.remove();
      this.widget = null;
      Object.assign(this, { playground: null, failure: null, citations: null });
      void this.load(context);
    } else if (this.widget && this.widget.locale !== context.locale) {
      this.widget.locale = context.locale;
      this.widget.title = this.t.widgetTitle;
    }
  }

  private async load(context: SectionContext): Promise<void> {
    try {
      const [playground] = await Promise.all([context.api.get<Playground>('/api/embed/playground', { quiet: true }), loadWidget()]);
      if (context !== this.context) return;
      this.playground = playground;
    } catch (error) {
      if (context === this.context) this.failure = format(this.t.unavailable, { message: (error as Error).message });
    }
  }

  protected updated(): void {
    const frame = this.renderRoot.querySelector('.frame');
    const playground = this.playground;
    const context = this.context;
    if (!frame || !playground || !context || this.widget) return;
    // Set as properties: the token never goes through an attribute.
    const widget = document.createElement('platform-chat') as unknown as WidgetElement;
    Object.assign(widget, {
      apiUrl: location.origin, clientKey: playground.client_key, tenant: context.tenant ?? undefined, hostManifest: playground.manifest,
      markEmbedRequests: false, launcher: false, locale: context.locale, title: this.t.widgetTitle,
      getAccessToken: () => this.context?.api.bearer() ?? null,
    });
    widget.addEventListener('platform-chat-answer', (event) => void this.showCitations((event as CustomEvent<Answered>).detail));
    this.widget = widget;
    frame.append(widget);
  }

  /** The citations of the stored answer `answered`, with their verification now. */
  private async showCitations(answered: Answered): Promise<void> {
    const context = this.context;
    const playground = this.playground;
    if (!context || !playground) return;
    const { api } = context;
    const page = await api.get<{ items: StoredMessage[] }>(`/api/sessions/${answered.session_id}/messages`, {
      query: { selected_client: playground.client_key, after: answered.message_id - 1, limit: 1 },
    }).catch(() => null);
    if (!page) return;
    const ids = new Set((page.items.find((m) => m.id === answered.message_id)?.tool_metadata?.citations ?? []).map((c) => c.citation_id).filter(Boolean));
    let citations: Citation[] = [];
    if (ids.size > 0) {
      const listed = await api.get<{ items: Citation[] }>('/api/citations', {
        query: { tenant_id: context.tenant ?? undefined, execution_context_type: 'chat_session', execution_context_id: answered.session_id, limit: 500 },
      }).catch(() => null);
      if (!listed) return;
      citations = listed.items.filter((c) => ids.has(c.id)).reverse();
    }
    this.citations = citations;
    context.announce(format(this.t.listed, { count: citations.length }));
  }

  private renderCitations() {
    const t = this.t;
    const score = new Intl.NumberFormat(this.context?.locale ?? 'en', { maximumFractionDigits: 3 });
    const citations = this.citations;
    // A list of cards rather than a table: it fits the narrow column and never scrolls sideways.
    return html`<section aria-labelledby="citations">
      <h2 id="citations">${t.citations}</h2>
      ${citations === null ? html`<p class="muted">${t.noAnswer}</p>`
        : citations.length === 0 ? html`<p class="muted">${t.citationsOf}: ${t.noCitations}</p>`
          : html`<h3>${t.citationsOf}</h3><ol class="citations" aria-label=${t.citationsOf}>${citations.map((c) => html`<li class="card">
            <dl>
              <dt>${t.document}</dt><dd>${c.document_name}${c.page ? html` <span class="muted">(${t.page} ${c.page})</span>` : nothing}</dd>
              <dt>${t.verification}</dt><dd><console-status tone=${TONES[c.verification_status] ?? 'neutral'}>${t[c.verification_status] ?? c.verification_status}</console-status></dd>
              ${c.match_type ? html`<dt>${t.match}</dt><dd>${c.match_type}${c.match_score === null ? '' : ` (${score.format(c.match_score)})`}</dd>` : nothing}
              ${c.quoted_text ? html`<dt>${t.quote}</dt><dd class="quote">${c.quoted_text}</dd>` : nothing}
            </dl>
          </li>`)}</ol>`}
    </section>`;
  }

  /** The conversations are read through the admin routes: shown to the tenant's admins only. */
  private isAdmin(): boolean {
    const roles = this.context?.roles;
    return roles === '*' || (roles ?? []).includes('admin');
  }

  render() {
    const t = this.t;
    if (this.failure) return html`<p role="alert">${this.failure}</p>`;
    if (!this.playground) return html`<p>${t.loading}</p>`;
    return html`<p class="muted">${format(t.intro, { client: this.playground.client_key })}</p>
      <div class="layout">
        <section aria-labelledby="playground"><h2 id="playground">${t.playground}</h2><div class="frame"></div></section>
        ${this.renderCitations()}
      </div>
      ${this.isAdmin() ? html`<console-chat-conversations .context=${this.context}></console-chat-conversations>` : nothing}`;
  }
}
