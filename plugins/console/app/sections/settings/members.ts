// <console-settings-members>: the tenant's members and their roles (GET
// /api/admin/users), adding one (POST /api/admin/users: the request's tenant),
// changing a member's roles (PATCH /api/admin/users/{sub}) and removing one
// from the tenant (DELETE, after a confirm dialog). The signed-in person's
// own row offers neither: the API refuses dropping one's own admin role.
import { css, html, nothing } from 'lit';
import { TenantSection } from '../../ui/tenant-section.ts';
import { format } from '../../i18n.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import { formStyles } from '../../ui/form-styles.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { rolesOf, rolesPicker } from './roles-picker.ts';
import { SETTINGS_STRINGS, type SettingsStrings } from './strings.ts';

export interface Member { sub: string; display_name: string; service_account: boolean; organizations: Record<string, { roles: string[] } | undefined> }

export const settingsStyles = [shared, formStyles, css`
  section { margin-bottom: 2rem; }
  h3 { font-size: 1rem; margin: 1.25rem 0 0.5rem; }
  .panel { border: 1px solid var(--border); border-radius: 8px; padding: 1rem; background: var(--surface); margin-top: 1rem; }
  .row-actions { display: flex; flex-wrap: wrap; gap: 0.4rem; }
  .row-actions button { padding: 0.2rem 0.6rem; font-size: 0.875rem; }
  .roles { display: flex; flex-wrap: wrap; gap: 0.3rem; }
`];

export class SettingsMembers extends TenantSection<SettingsStrings> {
  static properties = { members: { state: true }, editing: { state: true }, busy: { state: true } };
  declare members: Member[] | null;
  declare editing: Member | null;
  declare busy: boolean;
  static styles = settingsStyles;

  protected strings = SETTINGS_STRINGS;

  constructor() {
    super();
    this.members = null;
    this.editing = null;
    this.busy = false;
  }

  protected contextChanged(): void {
    this.editing = null;
    void this.load();
  }

  private async load(): Promise<void> {
    this.members = (await this.context?.api.get<{ items: Member[] }>('/api/admin/users', { query: { limit: 500 } }).catch(() => null))?.items ?? [];
  }

  private rolesIn(member: Member): string[] { return member.organizations[this.context?.tenant ?? '']?.roles ?? []; }

  private rolesText(roles: string[]): string { return roles.length ? roles.join(', ') : this.t.noRoles; }

  private async add(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    const data = new FormData(form);
    const sub = String(data.get('sub')).trim();
    const roles = rolesOf(form);
    this.busy = true;
    try {
      await this.context!.api.post('/api/admin/users', { sub, display_name: String(data.get('display_name')).trim(), roles });
      form.reset();
      this.context!.announce(format(this.t.added, { sub, roles: this.rolesText(roles) }));
      await this.load();
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private async edit(member: Member): Promise<void> {
    this.editing = member;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#roles-title')?.focus();
  }

  private async save(event: Event, member: Member): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    const roles = rolesOf(form);
    this.busy = true;
    try {
      await this.context!.api.patch(`/api/admin/users/${encodeURIComponent(member.sub)}`, { roles });
      this.editing = null;
      this.context!.announce(format(this.t.saved, { sub: member.sub, roles: this.rolesText(roles) }));
      await this.load();
    } catch { /* shown */ } finally {
      this.busy = false;
    }
  }

  private async removeMember(member: Member): Promise<void> {
    const t = this.t;
    if (!(await confirmDialog({ message: format(t.removeMemberConfirm, { sub: member.sub }), confirmLabel: t.remove, cancelLabel: t.cancel }))) return;
    try {
      await this.context!.api.delete(`/api/admin/users/${encodeURIComponent(member.sub)}`);
      if (this.editing?.sub === member.sub) this.editing = null;
      this.context!.announce(format(t.memberRemoved, { sub: member.sub }));
    } catch { /* shown */ }
    await this.load();
  }

  private renderEditor() {
    const member = this.editing;
    if (!member) return nothing;
    const t = this.t;
    return html`<div class="panel">
      <h3 id="roles-title" tabindex="-1">${format(t.rolesOf, { sub: member.sub })}</h3>
      <form novalidate aria-labelledby="roles-title" @submit=${(e: Event) => this.save(e, member)}>
        <fieldset><legend>${t.roles}</legend>${rolesPicker(t, 'edit', this.rolesIn(member))}</fieldset>
        <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy}>${t.save}</button>
          <button type="button" @click=${() => { this.editing = null; }}>${t.cancel}</button></div>
      </form>
    </div>`;
  }

  render() {
    const t = this.t;
    const me = this.context?.me.sub;
    const columns: Column<Member>[] = [
      { label: t.sub, cell: (m) => html`${m.sub}${m.sub === me ? html` <span class="muted">${t.you}</span>` : nothing}` },
      { label: t.displayName, cell: (m) => html`${m.display_name}${m.service_account ? html` <console-status>${t.serviceAccount}</console-status>` : nothing}` },
      { label: t.roles, cell: (m) => this.rolesText(this.rolesIn(m)) },
      {
        label: t.actions,
        cell: (m) => m.sub === me ? '' : html`<div class="row-actions">
          <button type="button" @click=${() => this.edit(m)}>${format(t.editRoles, { sub: m.sub })}</button>
          <button type="button" class="danger" @click=${() => this.removeMember(m)}>${format(t.removeMember, { sub: m.sub })}</button></div>`,
      },
    ];
    return html`<section aria-labelledby="members-title">
      <h2 id="members-title">${t.members}</h2>
      <p class="muted">${t.membersIntro}</p>
      ${this.members ? html`<console-table tabindex="0" role="group" aria-label=${t.members} .caption=${t.members} .empty=${t.noMembers} .columns=${columns} .rows=${this.members}></console-table>` : html`<p>${t.loading}</p>`}
      ${this.renderEditor()}
      <h3 id="add-member-title">${t.addMember}</h3>
      <p class="hint">${t.addMemberHint}</p>
      <form novalidate aria-labelledby="add-member-title" @submit=${(e: Event) => this.add(e)}>
        <div class="field"><label for="member-sub">${t.sub}<span class="req" aria-hidden="true">*</span></label>
          <input id="member-sub" name="sub" required maxlength="255" pattern="[\\x21-\\x7e]+" autocomplete="off"></div>
        <div class="field"><label for="member-name">${t.displayName}<span class="req" aria-hidden="true">*</span></label>
          <input id="member-name" name="display_name" required maxlength="200" autocomplete="off"></div>
        <fieldset><legend>${t.roles}</legend>${rolesPicker(t, 'add')}</fieldset>
        <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy}>${t.add}</button></div>
      </form>
    </section>`;
  }
}
if (!customElements.get('console-settings-members')) customElements.define('console-settings-members', SettingsMembers);
