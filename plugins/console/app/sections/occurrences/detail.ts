// <console-occurrence-detail>: one occurrence's page. Its details, the
// allowed transitions as buttons named after the target state (its label),
// the templates that apply, previewed then applied, and its timeline
// (history and messages) and duplicates. Fires `back` for the list.
import { LitElement, css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/status-badge.ts';
import { OCCURRENCES_STRINGS, type OccurrencesStrings } from './strings.ts';
import {
  stateTone, type AllowedTransition, type OccurrenceDetail, type OccurrenceType, type Preview, type StateGraph, type Template,
} from './types.ts';

interface TimelineItem { at: string; kind: 'history' | 'message'; render: () => unknown }

export class OccurrenceDetailView extends LitElement {
  static properties = {
    context: { attribute: false }, occurrenceId: { attribute: false }, graph: { attribute: false }, types: { attribute: false },
    detail: { state: true }, transitions: { state: true }, duplicateError: { state: true }, templates: { state: true }, preview: { state: true }, missing: { state: true }, busy: { state: true },
  };
  declare context: SectionContext | undefined;
  declare occurrenceId: number;
  declare graph: StateGraph | null;
  declare types: OccurrenceType[];
  declare detail: OccurrenceDetail | null;
  declare transitions: AllowedTransition[];
  declare templates: Template[];
  declare preview: (Preview & { template_id: number }) | null;
  declare missing: boolean;
  declare busy: boolean;
  declare duplicateError: string;
  private loadedId: number | null = null;
  private loadedContext: SectionContext | undefined;

  static styles = [shared, css`
    .top { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: baseline; justify-content: space-between; }
    h2 { overflow-wrap: anywhere; }
    h2:focus { outline: none; }
    h2:focus-visible { outline: 3px solid var(--focus); }
    .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 1rem; align-items: start; }
    .transitions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.5rem 0; }
    label { display: block; font-weight: 600; margin: 0.5rem 0 0.2rem; }
    .field { display: grid; }
    textarea { width: 100%; box-sizing: border-box; }
    textarea, input, select { font: inherit; color: var(--fg); padding: 0.35rem 0.5rem; border: 1px solid #8c959f; border-radius: 6px; background: var(--surface); }
    textarea { min-height: 3.5rem; resize: vertical; }
    ol { list-style: none; padding: 0; margin: 0; }
    ol li { border-left: 3px solid var(--border); padding: 0.25rem 0 0.5rem 0.75rem; margin-left: 0.25rem; }
    ol li.message { border-left-color: var(--accent); }
    .meta { color: var(--muted); font-size: 0.9rem; }
    .body { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.25rem 0; }
    .preview { border: 1px dashed var(--border); border-radius: 8px; padding: 0.75rem; margin: 0.75rem 0; background: var(--bg); }
    .preview h3 { margin: 0 0 0.5rem; font-size: 1rem; }
    .error { color: var(--error); font-weight: 600; margin: 0.25rem 0; }
    .error:empty { display: none; }
    .row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
    a { color: var(--accent); }
  `];

  constructor() {
    super();
    this.detail = null;
    this.transitions = [];
    this.templates = [];
    this.preview = null;
    this.missing = false;
    this.busy = false;
    this.duplicateError = '';
    this.graph = null;
    this.types = [];
  }

  private get t(): OccurrencesStrings { return OCCURRENCES_STRINGS[this.context?.locale ?? 'en']; }

  protected willUpdate(): void {
    if (this.context && (this.loadedId !== this.occurrenceId || this.loadedContext?.tenant !== this.context.tenant)) {
      this.loadedId = this.occurrenceId;
      this.loadedContext = this.context;
      this.detail = null;
      this.preview = null;
      this.missing = false;
      void this.load(true);
    }
  }

  private async load(focus = false): Promise<void> {
    const api = this.context!.api;
    const id = this.occurrenceId;
    try {
      const [detail, allowed, templates] = await Promise.all([
        api.get<OccurrenceDetail>(`/api/backoffice/occurrences/${id}`, { quiet: true }),
        api.get<{ allowed_transitions: AllowedTransition[] }>('/api/backoffice/states/allowed_transitions', { query: { occurrence_id: id } }),
        api.get<{ items: Template[] }>('/api/backoffice/templates/for_occurrence', { query: { occurrence_id: id } }),
      ]);
      if (id !== this.occurrenceId) return;
      this.detail = detail;
      this.transitions = allowed.allowed_transitions;
      this.templates = templates.items;
    } catch {
      if (id === this.occurrenceId) this.missing = true;
    }
    if (focus) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
    }
  }

  private stateLabel(key: string | null): string {
    if (key === null) return '';
    return this.graph?.states.find((s) => s.key === key)?.label ?? key;
  }

  private async transition(target: AllowedTransition): Promise<void> {
    const detail = this.detail;
    if (!detail || this.busy) return;
    const root = this.renderRoot;
    const comment = root.querySelector<HTMLTextAreaElement>('#comment')?.value.trim() ?? '';
    const body: Record<string, unknown> = { to_state: target.to_state, expected_state: detail.state };
    if (comment) body.comment = comment;
    this.busy = true;
    this.duplicateError = '';
    try {
      if (target.requires.includes('duplicate_of')) {
        const reference = root.querySelector<HTMLInputElement>(`#requires-${target.to_state}`)?.value.trim().toUpperCase() ?? '';
        const found = /^[A-Z0-9-]{1,40}$/.test(reference)
          ? (await this.context!.api.get<{ items: { id: number }[] }>('/api/backoffice/occurrences', { query: { reference, limit: 1 } })).items[0]
          : undefined;
        if (!found) {
          this.duplicateError = format(this.t.noSuchReference, { reference });
          return;
        }
        body.duplicate_of = found.id;
      }
      await this.context!.api.post(`/api/occurrences/${detail.id}/transition_state`, body);
      const comments = root.querySelector<HTMLTextAreaElement>('#comment');
      if (comments) comments.value = '';
      this.preview = null;
      await this.load();
      this.context!.announce(format(this.t.stateChanged, { state: target.label }));
    } catch { /* the shell shows the error */ } finally {
      this.busy = false;
    }
  }

  private selectedTemplate(): number | null {
    const value = this.renderRoot.querySelector<HTMLSelectElement>('#template')?.value;
    return value ? Number(value) : null;
  }

  private async previewTemplate(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const templateId = this.selectedTemplate();
    if (!templateId || !this.detail) return;
    try {
      const preview = await this.context!.api.post<Preview>('/api/backoffice/templates/preview', { occurrence_id: this.detail.id, template_id: templateId });
      this.preview = { ...preview, template_id: templateId };
      this.context!.announce(this.t.previewed);
    } catch { /* shown by the shell */ }
  }

  private async applyTemplate(): Promise<void> {
    const preview = this.preview;
    if (!preview || !this.detail || this.busy) return;
    this.busy = true;
    try {
      await this.context!.api.post('/api/backoffice/templates/apply', { occurrence_id: this.detail.id, template_id: preview.template_id });
      this.preview = null;
      await this.load();
      this.context!.announce(this.t.applied);
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private renderDetails(d: OccurrenceDetail) {
    const t = this.t;
    const given = (value: string | null) => value || html`<span class="muted">${t.notGiven}</span>`;
    const reporter = [d.reporter_name, d.reporter_email, d.reporter_phone].filter(Boolean).join(' · ');
    const when = new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'medium', timeStyle: 'short' });
    return html`<section class="card" aria-labelledby="details">
      <h3 id="details">${t.details}</h3>
      <dl>
        <dt>${t.state}</dt><dd><console-status tone=${stateTone(this.graph, d.state)}>${this.stateLabel(d.state)}</console-status></dd>
        <dt>${t.type}</dt><dd>${d.type?.name ?? d.occurrence_type}</dd>
        <dt>${t.created}</dt><dd>${when.format(new Date(d.created_at))}</dd>
        <dt>${t.address}</dt><dd>${given(d.address)}</dd>
        <dt>${t.reporter}</dt><dd>${given(reporter)}</dd>
        <dt>${t.supports}</dt><dd>${d.support_count}</dd>
        <dt>${t.source}</dt><dd>${d.source}</dd>
      </dl>
      ${d.description ? html`<h3>${t.description}</h3><p class="body">${d.description}</p>` : nothing}
    </section>`;
  }

  private renderTransitions() {
    const t = this.t;
    return html`<section class="card" aria-labelledby="transitions">
      <h3 id="transitions">${t.transitions}</h3>
      ${this.transitions.length === 0 ? html`<p class="muted">${t.noTransitions}</p>` : html`
        <label for="comment">${t.comment}</label>
        <textarea id="comment" maxlength="2000"></textarea>
        ${this.transitions.filter((a) => a.requires.includes('duplicate_of')).map((a) => html`
          <label for="requires-${a.to_state}">${t.duplicateOf}</label>
          <input id="requires-${a.to_state}" type="text" maxlength="40" autocomplete="off" aria-describedby="requires-error">
          <p id="requires-error" class="error" role="alert">${this.duplicateError}</p>`)}
        <div class="transitions">${this.transitions.map((a) => html`<button type="button" ?disabled=${this.busy} @click=${() => this.transition(a)}>${a.label}</button>`)}</div>`}
    </section>`;
  }

  private renderTemplates() {
    const t = this.t;
    const p = this.preview;
    return html`<section class="card" aria-labelledby="templates">
      <h3 id="templates">${t.templates}</h3>
      ${this.templates.length === 0 ? html`<p class="muted">${t.noTemplates}</p>` : html`
        <form class="row" @submit=${(e: SubmitEvent) => this.previewTemplate(e)}>
          <div class="field"><label for="template">${t.template}</label><select id="template" @change=${() => { this.preview = null; }}>
            ${this.templates.map((tpl) => html`<option value=${String(tpl.id)}>${tpl.name} (${t.channel[tpl.channel] ?? tpl.channel})</option>`)}
          </select></div>
          <button type="submit">${t.preview}</button>
        </form>
        ${p ? html`<section class="preview" aria-labelledby="preview-heading">
          <h3 id="preview-heading">${t.previewHeading}</h3>
          ${p.subject ? html`<p><strong>${t.subject}:</strong> ${p.subject}</p>` : nothing}
          <p class="body">${p.body}</p>
          ${p.unknown_variables.length ? html`<p class="muted">${format(t.unknownVariables, { names: p.unknown_variables.join(', ') })}</p>` : nothing}
          <button type="button" class="primary" ?disabled=${this.busy} @click=${() => this.applyTemplate()}>${t.applyTemplate}</button>
        </section>` : nothing}`}
    </section>`;
  }

  private renderTimeline(d: OccurrenceDetail) {
    const t = this.t;
    const when = new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'medium', timeStyle: 'medium' });
    const items: TimelineItem[] = [
      ...d.history.map((h): TimelineItem => ({
        at: h.created_at, kind: 'history',
        render: () => html`<strong>${h.from_state === null ? t.reported : format(t.changed, { from: this.stateLabel(h.from_state), to: this.stateLabel(h.to_state) })}</strong>
          <div class="meta">${when.format(new Date(h.created_at))}${h.actor ? html` · ${format(t.by, { actor: h.actor })}` : nothing}</div>
          ${h.comment ? html`<p class="body">${h.comment}</p>` : nothing}`,
      })),
      ...d.messages.map((m): TimelineItem => ({
        at: m.created_at, kind: 'message',
        render: () => html`<strong>${t.channel[m.channel] ?? m.channel}${m.subject ? html`: ${m.subject}` : nothing}</strong>
          <div class="meta">${when.format(new Date(m.created_at))}${m.created_by ? html` · ${format(t.by, { actor: m.created_by })}` : nothing}</div>
          <p class="body">${m.body}</p>`,
      })),
    ].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    return html`<section aria-labelledby="timeline">
      <h3 id="timeline">${t.timeline}</h3>
      <ol>${items.map((item) => html`<li class=${item.kind}>${item.render()}</li>`)}</ol>
      ${d.messages.length === 0 ? html`<p class="muted">${t.noMessages}</p>` : nothing}
    </section>`;
  }

  private renderDuplicates(d: OccurrenceDetail) {
    const t = this.t;
    return html`<section aria-labelledby="duplicates">
      <h3 id="duplicates">${t.duplicates}</h3>
      ${d.duplicate_of ? html`<p>${t.duplicateOfThis} <a href="/console/occurrences/${d.duplicate_of}" @click=${(e: MouseEvent) => this.follow(e, d.duplicate_of!)}>#${d.duplicate_of}</a></p>` : nothing}
      ${d.duplicates.length === 0 ? html`<p class="muted">${t.noDuplicates}</p>` : html`<ul>${d.duplicates.map((dup) => html`<li>
        <a href="/console/occurrences/${dup.id}" @click=${(e: MouseEvent) => this.follow(e, dup.id)}>${dup.reference}</a> ${dup.title}
        <console-status tone=${stateTone(this.graph, dup.state)}>${this.stateLabel(dup.state)}</console-status></li>`)}</ul>`}
    </section>`;
  }

  /** Another occurrence's page, in place. */
  private follow(event: MouseEvent, id: number): void {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    history.pushState(null, '', `/console/occurrences/${id}`);
    this.occurrenceId = id;
  }

  render() {
    const t = this.t;
    const back = html`<a href="/console/occurrences" @click=${(e: MouseEvent) => { if (e.button === 0 && !e.ctrlKey && !e.metaKey) { e.preventDefault(); this.dispatchEvent(new Event('back')); } }}>← ${t.back}</a>`;
    if (this.missing) return html`<p>${back}</p><h2 tabindex="-1">${t.notFound}</h2>`;
    const d = this.detail;
    if (!d) return html`<p>${back}</p><p role="status">${t.loading}</p>`;
    return html`<div class="top"><p>${back}</p></div>
      <h2 tabindex="-1">${d.reference}: ${d.title}</h2>
      <div class="grid">${this.renderDetails(d)}${this.renderTransitions()}${this.renderTemplates()}</div>
      <div class="grid">${this.renderTimeline(d)}${this.renderDuplicates(d)}</div>`;
  }
}
if (!customElements.get('console-occurrence-detail')) customElements.define('console-occurrence-detail', OccurrenceDetailView);
