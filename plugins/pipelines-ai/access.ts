// Who may use the AI endpoints: members of
// the tenant for what only reads (suggestions, review-sql); `admin` or
// `pipeline_editor` for what drafts with the model or writes (generate,
// fix, compose, publish), like every other data-pipeline change.
import type { RouteAccess } from 'agent-platform/sdk';

export const member: RouteAccess = { tenant: 'required', explicitTenant: true };
export const editor: RouteAccess = { tenant: 'required', explicitTenant: true, role: ['admin', 'pipeline_editor'] };
