// Who may do what (as in the other data-pipeline plugins): every member of the tenant named by X-Tenant-ID reads; `admin` or
// `pipeline_editor` changes and starts runs. The orchestrator's description
// (config, metrics, workers, task queues) counts jobs of the whole platform:
// editors only; its health is for members.
import type { RouteAccess } from 'agent-platform/sdk';

export const EDITOR_ROLES = ['admin', 'pipeline_editor'];
export const member: RouteAccess = { tenant: 'required', explicitTenant: true };
export const editor: RouteAccess = { tenant: 'required', explicitTenant: true, role: EDITOR_ROLES };
