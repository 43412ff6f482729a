// Who may apply (like the other data-pipeline plugins): the
// tenant is explicit (X-Tenant-ID, never a token claim), and both the dry-run and the
// apply need `admin` or `pipeline_editor`: a plan reveals what exists and what
// would change, which is an editor's business.
import type { RouteAccess } from 'agent-platform/sdk';

export const editor: RouteAccess = { tenant: 'required', explicitTenant: true, role: ['admin', 'pipeline_editor'] };
