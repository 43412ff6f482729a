// The conversations panel (with sessionSwitching): grouped today / yesterday /
// previous 7 days / older, search, rename, delete after confirmation; Escape
// closes it (handled by the element).
import { html, nothing } from 'lit';
import { groupSessions } from './groups.ts';
import type { ChatPanel } from './panel.ts';
import type { Session } from './types.ts';

export function renderConversations(p: ChatPanel) {
  const s = p.strings;
  const groups = groupSessions(p.sessions, new Date(), p.search);
  return html`
    <div class="conversations" part="conversations" role="dialog" aria-label=${s.conversations}>
      <div class="header">
        <h2>${s.conversations}</h2>
        <button class="icon-button" type="button" aria-label=${s.closeConversations} @click=${() => p.closeConversations()}>×</button>
      </div>
      <input class="field search" type="search" aria-label=${s.searchConversations} placeholder=${s.searchConversations}
        .value=${p.search} @input=${(e: Event) => { p.search = (e.target as HTMLInputElement).value; p.update(); }}>
      <ul>
        ${groups.length === 0 ? html`<li class="notice">${s.noConversations}</li>` : nothing}
        ${groups.map(({ group, sessions }) => html`
          <li data-group=${group}><h3>${s[group]}</h3>
            <ul>${sessions.map((session) => renderRow(p, session))}</ul>
          </li>`)}
      </ul>
    </div>`;
}

function renderRow(p: ChatPanel, session: Session) {
  const s = p.strings;
  const title = session.title || s.untitled;
  if (p.renaming === session.id) {
    let value = title;
    return html`<li class="conversation" data-session=${session.id}>
      <form class="feedback-form" @submit=${(e: Event) => { e.preventDefault(); if (value.trim()) void p.rename(session.id, value); }}>
        <input class="field" aria-label=${s.renameLabel} .value=${title} @input=${(e: Event) => (value = (e.target as HTMLInputElement).value)}>
        <button class="text-button" type="submit">${s.save}</button>
        <button class="text-button" type="button" @click=${() => { p.renaming = null; p.update(); }}>${s.cancel}</button>
      </form></li>`;
  }
  if (p.confirmingDelete === session.id) {
    return html`<li class="conversation" data-session=${session.id} role="alert">
      <span class="open">${s.confirmDelete}</span>
      <button class="text-button confirm-delete" type="button" @click=${() => p.remove(session.id)}>${s.delete}</button>
      <button class="text-button" type="button" @click=${() => { p.confirmingDelete = null; p.update(); }}>${s.cancel}</button></li>`;
  }
  return html`<li class="conversation" data-session=${session.id}>
    <button class="open" type="button" aria-current=${session.id === p.sessionId ? 'true' : 'false'} @click=${() => p.openSession(session.id)}>${title}</button>
    <button class="text-button rename" type="button" aria-label=${`${s.rename}: ${title}`} @click=${() => { p.renaming = session.id; p.update(); }}>${s.rename}</button>
    <button class="text-button delete" type="button" aria-label=${`${s.delete}: ${title}`} @click=${() => { p.confirmingDelete = session.id; p.update(); }}>${s.delete}</button>
  </li>`;
}
