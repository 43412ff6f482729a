// <console-ontology-policy>: one identity policy (GET
// /api/v1/identity-policies/{id}): its rules in order (the first rule that
// joins two records is the one a merge reports), blocking keys and block
// size, its immutable versions (GET …/{id}/versions), and the dry run
// (dry-run.ts). Fires `close` when closed.
import { html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import { scrollRegion } from '../../ui/scroll-region.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { ontologyStyles, shortFingerprint, when } from './common.ts';
import './dry-run.ts';
import { ONTOLOGY_STRINGS, type OntologyStrings } from './strings.ts';
import type { IdentityField, IdentityRule, Policy, PolicyVersion } from './types.ts';

export class OntologyPolicy extends TenantSection<OntologyStrings> {
  static properties = { policyId: { attribute: false }, policy: { state: true }, versions: { state: true } };
  declare policyId: string;
  declare policy: Policy | null;
  declare versions: PolicyVersion[] | null;
  static styles = ontologyStyles;
  protected strings = ONTOLOGY_STRINGS;

  constructor() {
    super();
    this.policyId = '';
    this.policy = null;
    this.versions = null;
  }

  protected contextChanged(): void {
    void this.load();
  }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    if (changed.has('policyId') && changed.get('policyId') !== undefined) void this.load();
  }

  /** Moves focus to the policy's heading (after it was opened). */
  async focusHeading(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  }

  private async load(): Promise<void> {
    const api = this.context?.api;
    const id = this.policyId;
    if (!api || !id) return;
    this.policy = null;
    this.versions = null;
    const [policy, versions] = await Promise.all([
      api.get<Policy>(`/api/v1/identity-policies/${id}`).catch(() => null),
      api.get<{ items: PolicyVersion[] }>(`/api/v1/identity-policies/${id}/versions`).then((r) => r.items, () => null),
    ]);
    if (id !== this.policyId) return;
    this.policy = policy;
    this.versions = versions;
  }

  private describeField(field: IdentityField): string {
    const parts = [...(field.normalizers ?? [])];
    if (field.threshold !== undefined) parts.push(format(this.t.threshold, { threshold: field.threshold }));
    return parts.length ? `${field.field} (${parts.join(', ')})` : field.field;
  }

  private renderRules(policy: Policy) {
    const t = this.t;
    const rows = policy.rules.map((rule, i) => ({ rule, order: i + 1 }));
    const columns: Column<{ rule: IdentityRule; order: number }>[] = [
      { label: t.order, cell: (r) => r.order, numeric: true },
      { label: t.rule, cell: (r) => html`<span class="mono">${r.rule.name}</span>` },
      { label: t.kind, cell: (r) => t.kinds[r.rule.kind] ?? r.rule.kind },
      { label: t.fields, cell: (r) => r.rule.fields.map((f) => this.describeField(f)).join('; ') },
    ];
    return html`<h3>${t.rules}</h3>
      ${scrollRegion(format(t.rulesOf, { name: policy.name }), html`<console-table hide-caption .caption=${format(t.rulesOf, { name: policy.name })} .empty=${t.none} .columns=${columns} .rows=${rows}></console-table>`)}
      <dl>
        <dt>${t.blockingKeys}</dt>
        <dd>${policy.blocking_keys.length ? policy.blocking_keys.map((k) => `${this.describeField(k)}${k.prefix ? `, ${format(t.prefix, { prefix: k.prefix })}` : ''}`).join('; ') : t.noBlockingKeys}</dd>
        <dt>${t.maxBlockSize}</dt><dd>${policy.max_block_size}</dd>
        <dt>${t.fingerprint}</dt><dd class="mono">${policy.fingerprint}</dd>
      </dl>`;
  }

  private renderVersions(policy: Policy) {
    const t = this.t;
    if (!this.versions) return nothing;
    const locale = this.context?.locale ?? 'en';
    const columns: Column<PolicyVersion>[] = [
      { label: t.version, cell: (v) => v.version, numeric: true },
      { label: t.fingerprint, cell: (v) => html`<span class="mono" title=${v.fingerprint}>${shortFingerprint(v.fingerprint)}</span>` },
      { label: t.rulesCount, cell: (v) => v.rules.map((r) => r.name).join(', ') },
      { label: t.createdAt, cell: (v) => when(v.created_at, locale) },
      { label: t.createdBy, cell: (v) => v.created_by ?? t.none },
    ];
    return html`<h3>${t.versions}</h3>
      ${scrollRegion(format(t.policyVersions, { name: policy.name }), html`<console-table hide-caption .caption=${format(t.policyVersions, { name: policy.name })} .empty=${t.none} .columns=${columns} .rows=${[...this.versions].reverse()}></console-table>`)}`;
  }

  render() {
    const t = this.t;
    const policy = this.policy;
    return html`<section class="panel" aria-labelledby="policy-heading">
      <div class="head">
        <h2 id="policy-heading" tabindex="-1">${format(t.policyOf, { name: policy?.name ?? '…' })}</h2>
        <button type="button" @click=${() => this.dispatchEvent(new CustomEvent('close'))}>${t.close}</button>
      </div>
      ${policy ? html`${policy.description ? html`<p>${policy.description}</p>` : nothing}
        ${this.renderRules(policy)}${this.renderVersions(policy)}
        <console-ontology-dry-run .context=${this.context} .policy=${policy} .versions=${this.versions ?? []}></console-ontology-dry-run>` : nothing}
    </section>`;
  }
}

if (!customElements.get('console-ontology-policy')) customElements.define('console-ontology-policy', OntologyPolicy);
