// Route access of the ontology routes. Core checks authentication, a named
// tenant's membership and the mutation roles; the tenant is 'optional' to
// core so that service and delegation tokens may omit X-Tenant-ID, and the
// `caller` pre-handler applies the 5.4 policy (policy.ts) to every route.
import type { Lifecycle, Request, RouteAccess } from 'agent-platform/sdk';
import type { OntologyCaller, OntologyPolicy } from './policy.ts';

export const EDITOR_ROLES = ['admin', 'pipeline_editor'];
export const reader: RouteAccess = { tenant: 'optional', explicitTenant: true };
export const editor: RouteAccess = { tenant: 'optional', explicitTenant: true, role: EDITOR_ROLES };

/** The pre-handler resolving `request.pre.caller`. */
export function callerPre(policy: OntologyPolicy): { method: Lifecycle.Method; assign: string } {
  return {
    assign: 'caller',
    method: (request) => policy.authorize(request.auth.credentials as never, request.app.tenantId),
  };
}

export const callerOf = (request: Request): OntologyCaller => request.pre.caller as OntologyCaller;
