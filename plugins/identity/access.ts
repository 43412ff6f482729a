// Who may do what on the identity routes (the data-pipeline rule, as in
// plugins/pipelines-sources): every member of the tenant named by X-Tenant-ID
// reads (dry runs too: they store nothing); `admin` or `pipeline_editor`
// changes. The tenant is always explicit (`X-Tenant-ID`).
import type { RouteAccess } from 'agent-platform/sdk';

export const EDITOR_ROLES = ['admin', 'pipeline_editor'];
export const member: RouteAccess = { tenant: 'required', explicitTenant: true };
export const editor: RouteAccess = { tenant: 'required', explicitTenant: true, role: EDITOR_ROLES };
