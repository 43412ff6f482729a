// Who may do what on the transform routes: the data-pipeline rule of the
// sources and lakehouse plugins (every member of the tenant named by
// X-Tenant-ID reads; `admin` or `pipeline_editor` changes and runs).
import type { RouteAccess } from 'agent-platform/sdk';

export const EDITOR_ROLES = ['admin', 'pipeline_editor'];
export const member: RouteAccess = { tenant: 'required', explicitTenant: true };
export const editor: RouteAccess = { tenant: 'required', explicitTenant: true, role: EDITOR_ROLES };
