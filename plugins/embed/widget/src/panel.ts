// The chat panel (lazily loaded chunk): the open conversation, its streamed
// turns, Stop, feedback, uploads, ask_user, and the conversations panel.
import { unsafeCSS, type ReactiveController } from 'lit';
import panelCss from './styles/panel.css';
import { ApiError, type ChatClient } from './client.ts';
import { applyFrame, fromStored, pendingAnswer, userMessage, type Activity, type ViewMessage } from './conversation.ts';
import { runTurn } from './turn.ts';
import { format } from './i18n.ts';
import type { Session } from './types.ts';
import type { PlatformChatElement } from './element.ts';
import { renderPanel } from './view.ts';

const sheet = unsafeCSS(panelCss).styleSheet!;

export interface UploadStatus {
  name: string;
  percent: number;
  state: 'progress' | 'done' | 'failed';
  reason?: string;
}

export class ChatPanel implements ReactiveController {
  readonly host: PlatformChatElement;
  client: ChatClient;
  status: 'loading' | 'ready' | 'error' = 'loading';
  error: string | null = null;
  sessionId: string | null = null;
  messages: ViewMessage[] = [];
  sessions: Session[] = [];
  activity: Activity = null;
  reconnecting = false;
  busy = false;
  draft = '';
  conversationsOpen = false;
  search = '';
  renaming: string | null = null;
  confirmingDelete: string | null = null;
  upload: UploadStatus | null = null;
  pendingContext: string | null = null;
  private turnId: string | undefined;
  private abort: AbortController | null = null;
  /** Resolves when a Stop has been recorded: the next question waits for it. */
  private stopping: Promise<unknown> = Promise.resolve();
  /** The turn being streamed (a question sent after Stop waits for its end). */
  private current: Promise<void> = Promise.resolve();
  stopRequested = false;

  constructor(host: PlatformChatElement) {
    this.host = host;
    this.client = host.client();
    host.addController(this);
    const root = host.renderRoot as ShadowRoot;
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }

  get strings() { return this.host.strings; }
  get options() { return this.host.resolved; }
  update(): void { this.host.requestUpdate(); }

  hostConnected(): void {}
  dispose(): void { this.abort?.abort(); }

  /** On mount: list the sessions and reopen the most recent, creating one only when none exists. */
  async start(): Promise<void> {
    if (this.host.failure) return this.fail(this.host.failure.message);
    if (!this.options.autoStart) return this.ready();
    try {
      if (this.options.resumeHistory) {
        this.sessions = await this.client.sessions();
        if (this.sessions[0]) return await this.openSession(this.sessions[0].id);
      }
      const created = await this.client.createSession();
      this.sessionId = created.id;
      this.sessions = [created, ...this.sessions];
      this.ready();
    } catch (error) {
      this.fail(this.host.describe(error));
    }
  }

  private ready(): void {
    this.status = 'ready';
    this.update();
  }

  private fail(message: string): void {
    this.status = 'error';
    this.error = message;
    this.update();
  }

  async openSession(id: string): Promise<void> {
    await this.discardUntouched(id);
    this.sessionId = id;
    this.messages = fromStored(await this.client.messages(id));
    this.conversationsOpen = false;
    this.ready();
  }

  /** An untouched conversation (no message) is deleted when the visitor switches away from it. */
  private async discardUntouched(next: string | null): Promise<void> {
    const current = this.sessionId;
    if (!current || current === next || this.messages.length > 0 || this.busy) return;
    this.sessionId = null;
    this.sessions = this.sessions.filter((s) => s.id !== current);
    await this.client.deleteSession(current).catch(() => undefined);
  }

  async newConversation(): Promise<void> {
    if (this.sessionId && this.messages.length === 0) return this.focusComposer();
    const created = await this.client.createSession().catch((error) => this.fail(this.host.describe(error)));
    if (!created) return;
    this.sessionId = created.id;
    this.sessions = [created, ...this.sessions];
    this.messages = [];
    this.conversationsOpen = false;
    this.ready();
    this.focusComposer();
  }

  private async ensureSession(): Promise<string> {
    if (!this.sessionId) {
      const created = await this.client.createSession();
      this.sessionId = created.id;
      this.sessions = [created, ...this.sessions];
    }
    return this.sessionId;
  }

  async send(): Promise<void> {
    const text = this.draft.trim();
    if (!text || (this.busy && !this.stopRequested)) return;
    this.draft = '';
    const content = this.pendingContext ? `${text}\n\n${this.pendingContext}` : text;
    this.pendingContext = null;
    if (this.upload?.state === 'done') this.upload = null;
    this.messages = [...this.messages, userMessage(text)];
    this.update();
    // Right after Stop: wait until the stop is recorded and the stopped turn has ended.
    await this.stopping;
    await this.current;
    this.current = this.stream('ask', { content });
    await this.current;
  }

  async answerAsk(message: ViewMessage, answer: string): Promise<void> {
    if (!message.ask || message.ask.answered || this.busy) return;
    message.ask.answered = true;
    this.messages = [...this.messages, userMessage(answer)];
    await this.stream('answer', { tool_call_id: message.ask.toolCallId, answer });
  }

  private async stream(kind: 'ask' | 'answer', input: Record<string, unknown>): Promise<void> {
    const answer = pendingAnswer();
    this.messages = [...this.messages, answer];
    this.busy = true;
    this.stopRequested = false;
    this.activity = 'thinking';
    this.turnId = undefined;
    this.update();
    const abort = (this.abort = new AbortController());
    let answered: { session_id: string; message_id: number } | null = null;
    try {
      const sessionId = await this.ensureSession();
      await runTurn(this.client, sessionId, kind, input, {
        onFrame: (frame) => {
          if (frame.type === 'turn') this.turnId = frame.turn_id;
          if (frame.type === 'message') answered = { session_id: sessionId, message_id: frame.message_id };
          this.activity = applyFrame(answer, frame, this.activity);
          this.update();
        },
        onReconnecting: (on) => { this.reconnecting = on; this.update(); },
      }, abort.signal);
    } catch (error) {
      if (!abort.signal.aborted) answer.error = this.host.describe(error);
    } finally {
      answer.streaming = false;
      this.busy = false;
      this.stopRequested = false;
      this.activity = null;
      this.reconnecting = false;
      this.abort = null;
      this.update();
      // The host may show what it knows of the stored answer (its citations, say).
      if (answered) this.host.dispatchEvent(new CustomEvent('platform-chat-answer', { detail: answered, bubbles: true, composed: true }));
    }
  }

  /** Stop: cancel the running turn (by its id, so a late cancel never stops the next question). */
  stop(): void {
    if (!this.busy || !this.sessionId) return;
    this.stopRequested = true;
    this.stopping = this.client.cancel(this.sessionId, this.turnId).catch(() => undefined);
    this.update();
    this.focusComposer();
  }

  async sendFeedback(message: ViewMessage, rating: number): Promise<void> {
    if (!message.id || !this.sessionId) return;
    message.feedback.rating = rating;
    message.feedback.state = 'sending';
    this.update();
    try {
      await this.client.feedback(this.sessionId, { message_id: message.id, rating, comment: message.feedback.comment });
      message.feedback.state = 'sent';
      message.feedback.formOpen = false;
    } catch {
      message.feedback.state = 'failed';
    }
    this.update();
  }

  async attach(file: File): Promise<void> {
    this.upload = { name: file.name, percent: 0, state: 'progress' };
    this.update();
    try {
      const sessionId = await this.ensureSession();
      const result = await this.client.upload(sessionId, file, (fraction) => {
        this.upload = { name: file.name, percent: Math.round(fraction * 100), state: 'progress' };
        this.update();
      });
      this.upload = { name: result.filename, percent: 100, state: 'done' };
      this.pendingContext = result.context;
    } catch (error) {
      const s = this.strings;
      const reason = error instanceof ApiError && error.status === 413 ? s.tooLarge
        : error instanceof ApiError && error.status === 415 ? s.unsupportedType : this.host.describe(error);
      this.upload = { name: file.name, percent: 0, state: 'failed', reason };
    }
    this.update();
  }

  uploadText(): string {
    const u = this.upload!;
    const s = this.strings;
    if (u.state === 'progress') return format(s.uploading, { name: u.name, percent: u.percent });
    if (u.state === 'done') return format(s.uploaded, { name: u.name });
    return format(s.uploadFailed, { name: u.name, reason: u.reason ?? '' });
  }

  async toggleConversations(): Promise<void> {
    if (this.conversationsOpen) return void this.closeConversations();
    this.conversationsOpen = true;
    this.search = '';
    this.update();
    this.sessions = await this.client.sessions().catch(() => this.sessions);
    this.update();
    await this.host.updateComplete;
    (this.host.renderRoot.querySelector('.conversations .search') as HTMLElement | null)?.focus();
  }

  /** Closes the conversations panel; false when it was not open. */
  closeConversations(): boolean {
    if (!this.conversationsOpen) return false;
    this.conversationsOpen = false;
    this.renaming = null;
    this.confirmingDelete = null;
    this.update();
    void this.host.updateComplete.then(() => (this.host.renderRoot.querySelector('[part~="conversations-button"]') as HTMLElement | null)?.focus());
    return true;
  }

  async rename(id: string, title: string): Promise<void> {
    const renamed = await this.client.renameSession(id, title.trim()).catch(() => null);
    if (renamed) this.sessions = this.sessions.map((s) => (s.id === id ? { ...s, title: renamed.title } : s));
    this.renaming = null;
    this.update();
  }

  async remove(id: string): Promise<void> {
    await this.client.deleteSession(id).catch(() => undefined);
    this.sessions = this.sessions.filter((s) => s.id !== id);
    this.confirmingDelete = null;
    if (id === this.sessionId) {
      this.sessionId = null;
      this.messages = [];
    }
    this.update();
    // The focused row is gone: keep the keyboard in the panel.
    await this.host.updateComplete;
    (this.host.renderRoot.querySelector('.conversations .search') as HTMLElement | null)?.focus();
  }

  focusComposer(): void {
    void this.host.updateComplete.then(() => (this.host.renderRoot.querySelector('.composer textarea') as HTMLElement | null)?.focus());
  }

  render() {
    return renderPanel(this);
  }
}
