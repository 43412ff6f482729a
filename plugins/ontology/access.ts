// Route access of the ontology routes. Core checks authentication, the
// tenant's presence, form and membership (before any validation, as on every
// /api/v1 route) and the mutation roles; service and delegation tokens may
// omit X-Tenant-ID (serviceMayOmitTenant), and the `caller` pre-handler
// applies the authorization policy (authorization/policy.ts) to every route.
import type { Lifecycle, Request, RouteAccess } from 'agent-platform/sdk';
import type { OntologyCaller, OntologyPolicy } from './authorization/policy.ts';

export const EDITOR_ROLES = ['admin', 'pipeline_editor'];
export const reader: RouteAccess = { tenant: 'required', explicitTenant: true, serviceMayOmitTenant: true };
export const editor: RouteAccess = { tenant: 'required', explicitTenant: true, serviceMayOmitTenant: true, role: EDITOR_ROLES };

/** The pre-handler resolving `request.pre.caller`. */
export function callerPre(policy: OntologyPolicy): { method: Lifecycle.Method; assign: string } {
  return {
    assign: 'caller',
    method: (request) => policy.authorize(request.auth.credentials as never, request.app.tenantId),
  };
}

export const callerOf = (request: Request): OntologyCaller => request.pre.caller as OntologyCaller;
