// The roles fields of the Settings forms: admin and staff as checkboxes,
// any other role as comma-separated text; and reading them back.
import { html } from 'lit';
import type { SettingsStrings } from './strings.ts';

const NAMED = ['admin', 'staff'] as const;

export function rolesPicker(t: SettingsStrings, idPrefix: string, roles: readonly string[] = []) {
  const others = roles.filter((role) => !(NAMED as readonly string[]).includes(role));
  return html`<div class="inline">
      <label class="check"><input type="checkbox" name="role" value="admin" .checked=${roles.includes('admin')}>${t.roleAdmin}</label>
      <label class="check"><input type="checkbox" name="role" value="staff" .checked=${roles.includes('staff')}>${t.roleStaff}</label>
    </div>
    <div class="field"><label for=${`${idPrefix}-other`}>${t.otherRoles}</label>
      <p class="hint" id=${`${idPrefix}-other-hint`}>${t.otherRolesHint}</p>
      <input id=${`${idPrefix}-other`} name="other_roles" autocomplete="off" aria-describedby=${`${idPrefix}-other-hint`}
        pattern="\\s*[a-z][a-z0-9_:\\-]*(\\s*,\\s*[a-z][a-z0-9_:\\-]*)*\\s*" .value=${others.join(', ')}></div>`;
}

/** The roles a form's picker holds, without repeats. */
export function rolesOf(form: HTMLFormElement): string[] {
  const data = new FormData(form);
  const others = String(data.get('other_roles') ?? '').split(',').map((role) => role.trim()).filter(Boolean);
  return [...new Set([...data.getAll('role').map(String), ...others])];
}
