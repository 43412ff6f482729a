// Who may do what on the data-pipeline routes: every member of the tenant named by
// X-Tenant-ID reads; `admin` or `pipeline_editor` changes (sources, streams,
// credentials, schedules, syncs). The tenant is always explicit (X-Tenant-ID):
// token claims never select it.
import type { RouteAccess } from 'agent-platform/sdk';

export const EDITOR_ROLES = ['admin', 'pipeline_editor'];
export const member: RouteAccess = { tenant: 'required', explicitTenant: true };
export const editor: RouteAccess = { tenant: 'required', explicitTenant: true, role: EDITOR_ROLES };
