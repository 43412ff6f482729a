// The panel's templates: header, messages (Markdown, activity, sources,
// feedback, ask_user, widgets: widgets.ts), composer. Conversations: conversations-view.ts.
import { html, nothing } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { live } from 'lit/directives/live.js';
import { renderMarkdown } from './markdown.ts';
import { renderConversations } from './conversations-view.ts';
import { renderWidget } from './widgets.ts';
import type { ChatPanel } from './panel.ts';
import type { ViewMessage } from './conversation.ts';
import type { Citation } from './types.ts';

const icon = (path: string) => html`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d=${path}/></svg>`;
const ICONS = {
  plus: 'M12 5v14M5 12h14',
  list: 'M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01',
  close: 'M18 6 6 18M6 6l12 12',
  clip: 'm21.44 11.05-9.19 9.19a6 6 0 0 1-8.49-8.49l8.57-8.57A4 4 0 1 1 18 8.84l-8.59 8.57a2 2 0 0 1-2.83-2.83l8.49-8.48',
  up: 'M7 10v12M15 5.88 14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88Z',
  down: 'M17 14V2M9 18.12 10 14H4.17a2 2 0 0 1-1.92-2.56l2.33-8A2 2 0 0 1 6.5 2H20a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-2.76a2 2 0 0 0-1.79 1.11L12 22a3.13 3.13 0 0 1-3-3.88Z',
};

export function renderPanel(p: ChatPanel) {
  const s = p.strings;
  const host = p.host;
  const title = p.options.title ?? host.manifest?.tenant_display_name ?? s.title;
  return html`
    <section class="shell" part="shell" aria-label=${title}>
      <header class="header" part="header">
        <h2>${title}</h2>
        ${p.options.sessionSwitching && p.status === 'ready' ? html`<button class="icon-button" part="conversations-button" type="button" aria-label=${s.conversations} title=${s.conversations}
            aria-expanded=${p.conversationsOpen ? 'true' : 'false'} @click=${() => p.toggleConversations()}>${icon(ICONS.list)}</button>` : nothing}
        ${p.status === 'ready' ? html`<button class="icon-button" part="new-conversation-button" type="button" aria-label=${s.newConversation} title=${s.newConversation}
            @click=${() => p.newConversation()}>${icon(ICONS.plus)}</button>` : nothing}
        ${host.isLauncher ? html`<button class="icon-button" type="button" aria-label=${s.closeChat} title=${s.closeChat} @click=${() => host.hide()}>${icon(ICONS.close)}</button>` : nothing}
      </header>
      ${p.status === 'error' ? html`<div class="error" part="error" role="alert">${p.error}</div>`
        : p.status === 'loading' ? html`<div class="messages" part="messages" role="status">${s.loading}</div>`
          : renderBody(p)}
      ${p.conversationsOpen ? renderConversations(p) : nothing}
    </section>`;
}

function renderBody(p: ChatPanel) {
  const s = p.strings;
  const welcome = p.options.welcomeMessage ?? s.welcome;
  return html`
    <div class="messages" part="messages" role="log" aria-label=${s.messagesLabel}>
      ${welcome ? html`<div class="message assistant" part="message"><div class="message-body" part="message-body">${welcome}</div></div>` : nothing}
      ${p.messages.map((m) => renderMessage(p, m))}
    </div>
    <div class="sr-only" aria-live="polite" aria-atomic="false">${liveText(p)}</div>
    ${p.reconnecting ? html`<div class="notice" role="status">${s.reconnecting}</div>` : nothing}
    ${p.upload ? html`<div class="upload-status ${p.upload.state}" role=${p.upload.state === 'failed' ? 'alert' : 'status'}>${p.uploadText()}</div>` : nothing}
    ${renderComposer(p)}`;
}

/** What the live region reads: the activity, then the answer once it is complete (not every token). */
function liveText(p: ChatPanel): string {
  const s = p.strings;
  if (p.activity) return { thinking: s.thinking, looking_up: s.lookingUp, writing: s.writing }[p.activity];
  const last = p.messages[p.messages.length - 1];
  return last && last.role === 'assistant' && !last.streaming ? last.text.slice(0, 500) : '';
}

function renderMessage(p: ChatPanel, m: ViewMessage) {
  const s = p.strings;
  const isLast = m === p.messages[p.messages.length - 1];
  return html`
    <article class="message ${m.role}" part="message" aria-label=${m.role === 'user' ? s.youSay : s.assistantSays} aria-busy=${m.streaming ? 'true' : 'false'}>
      ${m.text ? html`<div class="message-body" part="message-body">${m.role === 'assistant' ? unsafeHTML(renderMarkdown(m.text)) : m.text}</div>` : nothing}
      ${m.streaming && isLast && p.activity ? renderActivity(p) : nothing}
      ${(m.widgets ?? []).map((w) => renderWidget(p, w))}
      ${m.ask ? renderAsk(p, m) : nothing}
      ${m.interrupted ? html`<div class="interrupted" part="interrupted">${s.interrupted}</div>` : nothing}
      ${m.error ? html`<div class="error" role="alert">${m.error}</div>` : nothing}
      ${m.citations?.length ? renderSources(p, m.citations) : nothing}
      ${m.role === 'assistant' && m.id && !m.streaming && p.options.allowFeedback ? renderFeedback(p, m) : nothing}
    </article>`;
}

function renderActivity(p: ChatPanel) {
  const s = p.strings;
  const label = { thinking: s.thinking, looking_up: s.lookingUp, writing: s.writing }[p.activity!];
  return html`<div class="activity" part="activity tool-status" data-activity=${p.activity!}><span class="dot"></span>${label}</div>`;
}

function statusLabel(p: ChatPanel, status: string | undefined): string {
  const s = p.strings;
  if (status === 'verified') return s.verified;
  if (status === 'unverified' || status === 'failed') return s.unverified;
  return s.pending;
}

function renderSources(p: ChatPanel, citations: Citation[]) {
  return html`
    <ol class="sources" aria-label=${p.strings.sources}>
      ${citations.map((c, i) => html`<li>
        <details>
          <summary>[${c.ref ?? i + 1}] ${c.doc_name ?? ''}${c.page ? `, p. ${c.page}` : ''}
            <span class="status-${c.verification_status ?? 'pending'}">(${statusLabel(p, c.verification_status)})</span></summary>
          ${c.quote ? html`<blockquote>${c.quote}</blockquote>` : nothing}
        </details>
      </li>`)}
    </ol>`;
}

function renderAsk(p: ChatPanel, m: ViewMessage) {
  const ask = m.ask!;
  let answer = '';
  return html`
    <div class="ask" role="group" aria-label=${ask.question}>
      <div>${ask.question}</div>
      ${ask.options.length ? html`<div class="options">${ask.options.map((o) => html`<button class="text-button" type="button" ?disabled=${ask.answered || p.busy} @click=${() => p.answerAsk(m, o)}>${o}</button>`)}</div>`
        : html`<form class="feedback-form" @submit=${(e: Event) => { e.preventDefault(); if (answer.trim()) void p.answerAsk(m, answer.trim()); }}>
            <input class="field" aria-label=${p.strings.answer} ?disabled=${ask.answered} @input=${(e: Event) => (answer = (e.target as HTMLInputElement).value)}>
            <button class="text-button" type="submit" ?disabled=${ask.answered || p.busy}>${p.strings.send}</button></form>`}
    </div>`;
}

function renderFeedback(p: ChatPanel, m: ViewMessage) {
  const s = p.strings;
  const f = m.feedback;
  const rate = (rating: number) => {
    f.rating = rating;
    f.formOpen = true;
    p.update();
  };
  return html`
    <div class="feedback" part="feedback">
      <button class="icon-button" type="button" aria-label=${s.helpful} title=${s.helpful} aria-pressed=${f.rating === 1 ? 'true' : 'false'} ?disabled=${f.state === 'sending'} @click=${() => rate(1)}>${icon(ICONS.up)}</button>
      <button class="icon-button" type="button" aria-label=${s.notHelpful} title=${s.notHelpful} aria-pressed=${f.rating === -1 ? 'true' : 'false'} ?disabled=${f.state === 'sending'} @click=${() => rate(-1)}>${icon(ICONS.down)}</button>
      ${f.formOpen && f.state !== 'sent' ? html`
        <form class="feedback-form" @submit=${(e: Event) => { e.preventDefault(); void p.sendFeedback(m, f.rating ?? 1); }}>
          <input class="field" aria-label=${s.comment} placeholder=${s.comment} .value=${live(f.comment)} @input=${(e: Event) => (f.comment = (e.target as HTMLInputElement).value)}>
          <button class="primary feedback-submit" part="feedback-submit" type="submit" ?disabled=${f.state === 'sending'}>${s.sendFeedback}</button>
        </form>` : nothing}
      ${f.state === 'sending' ? html`<span class="feedback-result" part="feedback-result" role="status">${s.feedbackSending}</span>` : nothing}
      ${f.state === 'sent' ? html`<span class="feedback-result sent" part="feedback-result" role="status">${s.feedbackSent}</span>` : nothing}
      ${f.state === 'failed' ? html`<span class="feedback-result failed" part="feedback-result" role="alert">${s.feedbackFailed}
        <button class="text-button" type="button" @click=${() => p.sendFeedback(m, f.rating ?? 1)}>${s.retry}</button></span>` : nothing}
    </div>`;
}

function renderComposer(p: ChatPanel) {
  const s = p.strings;
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void p.send();
    }
  };
  const pick = (e: Event) => {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) void p.attach(file);
  };
  return html`
    <form class="composer" part="composer" @submit=${(e: Event) => { e.preventDefault(); void p.send(); }}>
      ${p.options.allowUploads ? html`
        <label class="icon-button" part="upload-button" title=${s.attach}>${icon(ICONS.clip)}<span class="sr-only">${s.attach}</span>
          <input class="sr-only" type="file" @change=${pick} ?disabled=${p.upload?.state === 'progress'}></label>` : nothing}
      <textarea rows="1" aria-label=${s.messageLabel} placeholder=${p.options.placeholder ?? s.placeholder} .value=${live(p.draft)}
        @input=${(e: Event) => (p.draft = (e.target as HTMLTextAreaElement).value)} @keydown=${onKey}></textarea>
      ${p.busy && !p.stopRequested
        ? html`<button class="stop-button" part="stop-button" type="button" @click=${() => p.stop()}>${s.stop}</button>`
        : html`<button class="send-button" part="send-button" type="submit">${s.send}</button>`}
    </form>`;
}
