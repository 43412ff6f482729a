// Who may call a function: the one check of every call (FunctionRegistry.call
// runs it, whoever calls: the admin route, an agent's tool call, a workflow
// step, a source). The call carries the principal of the person it is made
// for (core/auth/acting-for.ts for work stored to run later). A function
// declares `roles`: the roles of which the caller must hold one in the
// tenant; `[]` lets any member of the tenant call it (a user with a
// membership, the tenant's API keys and embed tokens). Without `roles` a
// function is an admin's (DEFAULT_FUNCTION_ROLES): emitting events, outbound
// HTTP, imported APIs with stored credentials. The super-admin and service
// principals hold every role. `granted`: functions a tenant admin granted to
// whoever uses the surface making the call (a chat agent's `functions`): any
// member of the tenant may call those.
import { forbidden } from '../errors.ts';
import { holdsRole } from '../auth/tenant-context.ts';
import { principalTenants, rolesIn, type Principal } from '../auth/principal.ts';

export const DEFAULT_FUNCTION_ROLES: readonly string[] = ['admin'];

/** Whether the principal acts in the tenant at all (a member of it, or a principal of every tenant). */
function memberOf(principal: Principal, tenantId: string): boolean {
  const tenants = principalTenants(principal);
  return tenants === 'any' || tenants.includes(tenantId);
}

/** Why the principal may not call the function in the tenant, or undefined when it may. */
export function callRefusal(principal: Principal, tenantId: string, name: string, roles: readonly string[] | undefined, granted?: readonly string[]): string | undefined {
  if (!memberOf(principal, tenantId)) return `The caller is not a member of tenant ${tenantId}`;
  if (granted?.includes(name)) return undefined;
  const required = roles ?? DEFAULT_FUNCTION_ROLES;
  if (required.length === 0 || holdsRole(rolesIn(principal, tenantId), [...required])) return undefined;
  return `Calling ${name} needs ${required.length === 1 ? `the role "${required[0]}"` : `one of the roles ${required.map((r) => `"${r}"`).join(', ')}`} in tenant ${tenantId}`;
}

/** Throws 403 FUNCTION_FORBIDDEN when the principal may not call the function (nothing is called). */
export function authorizeCall(principal: Principal, tenantId: string, name: string, roles: readonly string[] | undefined, granted?: readonly string[]): void {
  const refusal = callRefusal(principal, tenantId, name, roles, granted);
  if (refusal) throw forbidden(refusal, 'FUNCTION_FORBIDDEN');
}
