// <console-forms-submissions>: the tenant's submissions, newest first (GET
// /api/admin/forms/submissions, filtered by use case and hydration status)
// with their hydration status; one opened (GET .../{id}) shows its data and
// the object its hydration created, or the latest attempt's errors.
import { html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/row-button.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { FORMS_STRINGS, type FormsStrings } from './strings.ts';
import { formsStyles } from './styles.ts';
import type { Paged, SubmissionSummary, UseCase } from './types.ts';

export class FormsSubmissions extends TenantSection<FormsStrings> {
  static properties = { ...TenantSection.properties, items: { state: true }, useCases: { state: true }, filter: { state: true }, open: { state: true } };
  declare items: SubmissionSummary[] | null;
  declare useCases: UseCase[];
  declare filter: { useCase: string; status: string };
  declare open: SubmissionSummary | null;
  static styles = formsStyles;
  protected strings = FORMS_STRINGS;

  constructor() {
    super();
    this.items = null;
    this.useCases = [];
    this.filter = { useCase: '', status: '' };
    this.open = null;
  }

  protected contextChanged(context: SectionContext): void {
    this.open = null;
    void context.api.get<Paged<UseCase>>('/api/admin/forms/use-cases', { query: { limit: 500 } }).catch(() => null).then((found) => { this.useCases = found?.items ?? []; });
    void this.load();
  }

  private async load(): Promise<void> {
    this.items = null;
    const query = { limit: 200, use_case_id: this.filter.useCase || undefined, hydration_status: this.filter.status || undefined };
    const found = await this.context!.api.get<Paged<SubmissionSummary>>('/api/admin/forms/submissions', { query }).catch(() => null);
    this.items = found?.items ?? [];
  }

  private setFilter(patch: Partial<{ useCase: string; status: string }>): void {
    this.filter = { ...this.filter, ...patch };
    void this.load();
  }

  private async show(id: string): Promise<void> {
    this.open = await this.context!.api.get<SubmissionSummary>(`/api/admin/forms/submissions/${id}`).catch(() => null);
    if (this.open) this.context!.announce(format(this.t.submission, { id }));
  }

  private status(s: SubmissionSummary) {
    const ok = s.hydration.status === 'hydrated';
    return html`<console-status tone=${ok ? 'ok' : 'error'}>${ok ? this.t.statusHydrated : this.t.statusFailed}</console-status>`;
  }

  private detail() {
    const s = this.open;
    if (!s) return nothing;
    const t = this.t;
    const last = s.hydration.history?.at(-1);
    return html`<section class="panel" aria-labelledby="submission-heading">
      <h3 id="submission-heading">${format(t.submission, { id: s.id })}</h3>
      <dl>
        <dt>${t.submitted}</dt><dd>${new Date(s.created_at).toLocaleString(this.context?.locale)}</dd>
        <dt>${t.formVersion}</dt><dd>${s.form_version}</dd>
        <dt>${t.submittedBy}</dt><dd>${s.submitted_by ?? t.anonymous}</dd>
        <dt>${t.filterStatus}</dt><dd>${this.status(s)}</dd>
        <dt>${t.attempts}</dt><dd>${s.hydration.attempts}</dd>
      </dl>
      <h4>${t.data}</h4>
      <pre>${JSON.stringify(s.payload_json, null, 2)}</pre>
      ${s.hydration.status === 'hydrated'
        ? html`<h4>${t.hydratedObject}</h4><pre>${JSON.stringify(s.hydration.object ?? last?.object ?? { id: s.hydration.object_id }, null, 2)}</pre>`
        : html`<h4>${t.hydrationErrors}</h4><ul class="errors">${(last?.errors ?? []).map((e) => html`<li>${e.path ? html`<code>${e.path}</code>: ` : nothing}${e.message}</li>`)}</ul>`}
    </section>`;
  }

  render() {
    const t = this.t;
    const names = new Map(this.useCases.map((u) => [u.id, u.name]));
    const columns: Column<SubmissionSummary>[] = [
      { label: t.submitted, cell: (s) => { const when = new Date(s.created_at).toLocaleString(this.context?.locale); return html`<console-row-button variant="link" label=${format(t.openSubmission, { when })} @click=${() => this.show(s.id)}>${when}</console-row-button>`; } },
      { label: t.filterUseCase, cell: (s) => names.get(s.use_case_id) ?? s.use_case_id },
      { label: t.formVersion, cell: (s) => s.form_version, numeric: true },
      { label: t.filterStatus, cell: (s) => this.status(s) },
      { label: t.object, cell: (s) => s.hydration.object_id ?? '' },
    ];
    return html`<section aria-labelledby="submissions-heading">
      <h2 id="submissions-heading">${t.submissions}</h2>
      <p>${t.submissionsIntro}</p>
      <div class="inline">
        <div class="field"><label for="sub-use-case">${t.filterUseCase}</label>
          <select id="sub-use-case" @change=${(e: Event) => this.setFilter({ useCase: (e.target as HTMLSelectElement).value })}>
            <option value="">${t.all}</option>${this.useCases.map((u) => html`<option value=${u.id}>${u.name}</option>`)}
          </select></div>
        <div class="field"><label for="sub-status">${t.filterStatus}</label>
          <select id="sub-status" @change=${(e: Event) => this.setFilter({ status: (e.target as HTMLSelectElement).value })}>
            <option value="">${t.all}</option><option value="hydrated">${t.statusHydrated}</option><option value="failed">${t.statusFailed}</option>
          </select></div>
      </div>
      ${this.items ? html`<console-table hide-caption caption=${t.submissions} .columns=${columns} .rows=${this.items} empty=${t.none}></console-table>` : html`<p aria-busy="true">${t.loading}</p>`}
      ${this.detail()}
    </section>`;
  }
}
if (!customElements.get('console-forms-submissions')) customElements.define('console-forms-submissions', FormsSubmissions);
