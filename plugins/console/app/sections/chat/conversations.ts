// <console-chat-conversations>: the tenant's chat sessions for its admins
// (GET /api/admin/chat/sessions, filtered by "with feedback only" and a
// rating), and the messages of the one opened with each answer's feedback
// (GET /api/admin/chat/sessions/{id}/messages).
import { css, html, nothing } from 'lit';
import { TenantSection } from '../../ui/tenant-section.ts';
import { format } from '../../i18n.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/table.ts';
import '../../ui/row-button.ts';
import type { Column } from '../../ui/table.ts';
import { CHAT_STRINGS, type ChatStrings } from './strings.ts';

interface Session { id: string; title: string; owner_sub: string; created_at: string; message_count: number; feedback_count: number }
interface Feedback { rating: number; comment: string }
interface Message { id: number; role: string; content: string; created_at: string; feedback: Feedback | null }

const RATINGS = [-1, 0, 1, 2, 3, 4, 5];
/** The plugin writes UTC without a zone suffix. */
const instant = (value: string) => new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);

/** A stored answer as a person reads it: without its machine-readable <citations> block (GET /api/citations has them). */
const readable = (content: string) => content.replace(/<citations>[\s\S]*?<\/citations>/g, '').trim();

export class ChatConversations extends TenantSection<ChatStrings> {
  static properties = {
    sessions: { state: true }, opened: { state: true }, messages: { state: true },
    withFeedback: { state: true }, rating: { state: true }, failure: { state: true },
  };
  declare sessions: Session[] | null;
  declare opened: Session | null;
  declare messages: Message[] | null;
  declare withFeedback: boolean;
  /** '' for any rating. */
  declare rating: string;
  declare failure: string | null;

  static styles = [shared, css`
    :host { display: block; margin-top: 1.5rem; }
    .check { display: flex; align-items: center; gap: 0.5rem; }
    .filters { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: 0 0 0.75rem; }
    ol.messages { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.75rem; }
    .text { white-space: pre-wrap; word-break: break-word; margin: 0.25rem 0; }
    h3 { font-size: 1rem; margin: 1rem 0 0.5rem; }
  `];

  protected strings = CHAT_STRINGS;

  constructor() {
    super();
    Object.assign(this, { sessions: null, opened: null, messages: null, withFeedback: false, rating: '', failure: null });
  }

  protected contextChanged(): void {
    Object.assign(this, { opened: null, messages: null });
    void this.list();
  }

  private async list(): Promise<void> {
    const context = this.context;
    if (!context) return;
    const query: Record<string, string | number> = { limit: 50 };
    if (this.withFeedback) query.has_feedback = 'true';
    if (this.rating !== '') query.rating = Number(this.rating);
    try {
      const page = await context.api.get<{ items: Session[] }>('/api/admin/chat/sessions', { query, quiet: true });
      if (context !== this.context) return;
      this.sessions = page.items;
      this.failure = null;
    } catch (error) {
      this.failure = format(this.t.conversationsUnavailable, { message: (error as Error).message });
    }
  }

  private async open(session: Session): Promise<void> {
    const context = this.context;
    if (!context) return;
    try {
      const page = await context.api.get<{ items: Message[] }>(`/api/admin/chat/sessions/${encodeURIComponent(session.id)}/messages`, { query: { limit: 200 }, quiet: true });
      Object.assign(this, { opened: session, messages: page.items, failure: null });
      context.announce(format(this.t.openedConversation, { title: this.titleOf(session), count: page.items.length }));
    } catch (error) {
      this.failure = format(this.t.conversationsUnavailable, { message: (error as Error).message });
    }
  }

  private titleOf(session: Session): string { return session.title || this.t.untitled; }

  private renderMessages() {
    const t = this.t;
    const opened = this.opened;
    if (!opened || !this.messages) return nothing;
    const when = new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'short', timeStyle: 'medium' });
    return html`<h3 id="conversation">${format(t.conversationOf, { title: this.titleOf(opened) })}</h3>
      ${this.messages.length === 0 ? html`<p class="muted">${t.noMessages}</p>` : html`<ol class="messages" aria-labelledby="conversation">${this.messages.map((m) => html`<li class="card">
        <strong>${m.role === 'user' ? t.roleUser : m.role === 'assistant' ? t.roleAssistant : m.role}</strong>
        <span class="muted">${when.format(instant(m.created_at))}</span>
        <p class="text">${readable(m.content)}</p>
        ${m.feedback ? html`<dl><dt>${t.rating}</dt><dd>${m.feedback.rating}</dd>${m.feedback.comment ? html`<dt>${t.comment}</dt><dd class="text">${m.feedback.comment}</dd>` : nothing}</dl>` : nothing}
      </li>`)}</ol>`}`;
  }

  render() {
    const t = this.t;
    const when = new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'short', timeStyle: 'short' });
    const columns: Column<Session>[] = [
      { label: t.conversationTitle, cell: (s) => html`<console-row-button variant="link" label=${format(t.open, { title: this.titleOf(s) })}
          @click=${() => void this.open(s)}>${this.titleOf(s)}</console-row-button>` },
      { label: t.owner, cell: (s) => s.owner_sub },
      { label: t.started, cell: (s) => when.format(instant(s.created_at)) },
      { label: t.messagesCount, cell: (s) => s.message_count, numeric: true },
      { label: t.feedbackCount, cell: (s) => s.feedback_count, numeric: true },
    ];
    return html`<section aria-labelledby="conversations">
      <h2 id="conversations">${t.conversations}</h2>
      <div class="filters">
        <label class="check"><input type="checkbox" .checked=${this.withFeedback}
          @change=${(e: Event) => { this.withFeedback = (e.target as HTMLInputElement).checked; void this.list(); }}> ${t.withFeedback}</label>
        <label>${t.rating} <select @change=${(e: Event) => { this.rating = (e.target as HTMLSelectElement).value; void this.list(); }}>
          <option value="" ?selected=${this.rating === ''}>${t.anyRating}</option>
          ${RATINGS.map((r) => html`<option value=${r} ?selected=${this.rating === String(r)}>${r}</option>`)}
        </select></label>
      </div>
      ${this.failure ? html`<p role="alert">${this.failure}</p>` : nothing}
      ${this.sessions === null ? html`<p>${t.loading}</p>`
        : html`<console-table hide-caption caption=${t.conversations} empty=${t.noConversations} .columns=${columns} .rows=${this.sessions}></console-table>`}
      ${this.renderMessages()}
    </section>`;
  }
}
if (!customElements.get('console-chat-conversations')) customElements.define('console-chat-conversations', ChatConversations);
