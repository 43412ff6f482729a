// The Approvals section (any member): the pending cases the signed-in person
// may decide (GET /api/approvals?mine=true&status=pending), each with a
// comment field and Approve and Reject (POST /api/approvals/{id}/decision),
// and the settled cases the person may see, with who decided and when. A
// person who may decide nothing (or has decided already) gets no buttons.
import { css, html, nothing } from 'lit';
import { TenantSection } from '../../ui/tenant-section.ts';
import { format } from '../../i18n.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import type { Tone } from '../../ui/status-badge.ts';
import { APPROVALS_STRINGS, type ApprovalsStrings } from './strings.ts';

interface Decision { by: string; decision: 'approve' | 'reject'; comment: string | null; decided_at: string }
interface ApprovalCase {
  id: string; title: string; description: string; payload: unknown; status: string; quorum: number;
  source: { type: string; [key: string]: unknown }; decisions: Decision[]; requested_by: string;
  expires_at: string; created_at: string; resolved_at: string | null;
}
type List<T> = { items: T[]; total: number };

const TONES: Record<string, Tone> = { pending: 'warn', approved: 'ok', rejected: 'error', expired: 'neutral', cancelled: 'neutral' };

export default class ApprovalsSection extends TenantSection<ApprovalsStrings> {
  static properties = {
    pending: { state: true }, settled: { state: true }, comments: { state: true }, busy: { state: true }, loading: { state: true },
  };
  declare pending: ApprovalCase[] | null;
  declare settled: ApprovalCase[] | null;
  declare comments: Record<string, string>;
  declare busy: string | null;
  declare loading: boolean;

  static styles = [shared, css`
    .head { display: flex; justify-content: flex-end; margin-top: -0.5rem; }
    .cases { display: grid; gap: 1rem; }
    article h3 { margin: 0 0 0.5rem; font-size: 1.05rem; }
    label { display: grid; gap: 0.25rem; font-weight: 600; margin-top: 0.75rem; }
    textarea { font: inherit; padding: 0.4rem; border: 1px solid var(--border); border-radius: 6px; background: var(--surface); color: var(--fg); min-height: 3rem; width: 100%; max-width: 40rem; box-sizing: border-box; }
    .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 0.6rem; }
    button.reject { border-color: var(--error); color: var(--error); }
    pre { white-space: pre-wrap; word-break: break-word; border: 1px solid var(--border); border-radius: 6px; padding: 0.5rem; font-size: 0.85rem; max-height: 12rem; overflow: auto; }
    ul { margin: 0.25rem 0; padding-left: 1.25rem; }
  `];

  protected strings = APPROVALS_STRINGS;

  constructor() {
    super();
    this.pending = null;
    this.settled = null;
    this.comments = {};
    this.busy = null;
    this.loading = false;
  }

  protected contextChanged(): void {
    void this.load();
  }

  async load(announce = false): Promise<void> {
    const context = this.context;
    if (!context?.tenant) return;
    this.loading = true;
    const { api } = context;
    const [pending, all] = await Promise.all([
      api.get<List<ApprovalCase>>('/api/approvals', { query: { mine: true, status: 'pending', limit: 100 } }).then((r) => r.items, () => null),
      api.get<List<ApprovalCase>>('/api/approvals', { query: { limit: 100 } }).then((r) => r.items, () => null),
    ]);
    this.pending = pending;
    this.settled = all ? all.filter((c) => c.status !== 'pending') : null;
    this.loading = false;
    if (announce) context.announce(this.t.refreshed);
  }

  private async decide(item: ApprovalCase, decision: 'approve' | 'reject'): Promise<void> {
    const context = this.context;
    if (!context) return;
    this.busy = item.id;
    const comment = this.comments[item.id]?.trim();
    const decided = await context.api.post<ApprovalCase>(`/api/approvals/${item.id}/decision`, { decision, ...(comment ? { comment } : {}) }).catch(() => null);
    this.busy = null;
    if (!decided) return;
    const t = this.t;
    const message = decided.status === 'approved' ? t.approved : decided.status === 'rejected' ? t.rejected : t.recorded;
    context.announce(format(message, { title: decided.title }));
    await this.load();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#to-decide')?.focus();
  }

  private when(value: string | null): string {
    if (!value) return '—';
    return new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(value));
  }

  private sourceOf(item: ApprovalCase): string {
    return this.t.sources[item.source.type] ?? item.source.type;
  }

  private renderCase(item: ApprovalCase) {
    const t = this.t;
    const me = this.context?.me.sub;
    const mine = item.decisions.find((d) => d.by === me);
    const commentId = `comment-${item.id}`;
    return html`<article class="card" aria-labelledby=${`case-${item.id}`}>
      <h3 id=${`case-${item.id}`}>${item.title}</h3>
      ${item.description ? html`<p>${item.description}</p>` : nothing}
      <dl>
        <dt>${t.source}</dt><dd>${this.sourceOf(item)}</dd>
        <dt>${t.requestedBy}</dt><dd>${item.requested_by}</dd>
        <dt>${t.requestedAt}</dt><dd>${this.when(item.created_at)}</dd>
        <dt>${t.expiresAt}</dt><dd>${this.when(item.expires_at)}</dd>
        ${item.quorum > 1 ? html`<dt>${t.quorum}</dt><dd>${item.quorum}</dd>` : nothing}
      </dl>
      ${item.payload !== undefined && item.payload !== null
        ? html`<pre tabindex="0" role="region" aria-label=${format(t.payload, { title: item.title })}>${JSON.stringify(item.payload, null, 2)}</pre>` : nothing}
      ${item.decisions.length ? html`<p>${t.decisionsSoFar}:</p><ul>${item.decisions.map((d) => html`<li>${this.decisionText(d)}</li>`)}</ul>` : nothing}
      ${mine ? html`<p>${format(t.youDecided, { decision: t.decisions[mine.decision] ?? mine.decision })}</p>` : html`
        <label id=${`${commentId}-label`} for=${commentId}>${t.commentLabel}</label>
        <textarea id=${commentId} aria-labelledby=${`${commentId}-label case-${item.id}`} maxlength="2000" .value=${this.comments[item.id] ?? ''}
          @input=${(e: Event) => { this.comments = { ...this.comments, [item.id]: (e.target as HTMLTextAreaElement).value }; }}></textarea>
        <div class="actions">
          <button type="button" class="primary" ?disabled=${this.busy === item.id} aria-label=${format(t.approveCase, { title: item.title })}
            @click=${() => this.decide(item, 'approve')}>${t.approve}</button>
          <button type="button" class="reject" ?disabled=${this.busy === item.id} aria-label=${format(t.rejectCase, { title: item.title })}
            @click=${() => this.decide(item, 'reject')}>${t.reject}</button>
        </div>`}
    </article>`;
  }

  private decisionText(d: Decision): string {
    const t = this.t;
    const text = format(t.decisionBy, { by: d.by, decision: t.decisions[d.decision] ?? d.decision });
    return `${text} (${this.when(d.decided_at)})${d.comment ? `: ${d.comment}` : ''}`;
  }

  private renderSettled() {
    const t = this.t;
    if (!this.settled) return nothing;
    const columns: Column<ApprovalCase>[] = [
      { label: t.title, cell: (c) => c.title },
      { label: t.status, cell: (c) => html`<console-status tone=${TONES[c.status] ?? 'neutral'}>${t.statuses[c.status] ?? c.status}</console-status>` },
      { label: t.decidedBy, cell: (c) => (c.decisions.length ? c.decisions.map((d) => this.decisionText(d)).join('; ') : t.nobody) },
      { label: t.decidedAt, cell: (c) => this.when(c.resolved_at) },
    ];
    return html`<section aria-labelledby="decided">
      <h2 id="decided">${t.decided}</h2>
      <console-table hide-caption .caption=${t.decided} .empty=${t.noneDecided} .columns=${columns} .rows=${this.settled}></console-table>
    </section>`;
  }

  render() {
    const t = this.t;
    return html`<div class="head"><button type="button" ?disabled=${this.loading} @click=${() => this.load(true)}>${t.refresh}</button></div>
      <section aria-labelledby="to-decide">
        <h2 id="to-decide" tabindex="-1">${t.toDecide}</h2>
        ${this.pending === null ? nothing : this.pending.length === 0 ? html`<p>${t.nothingToDecide}</p>`
          : html`<div class="cases">${this.pending.map((item) => this.renderCase(item))}</div>`}
      </section>
      ${this.renderSettled()}`;
  }
}
