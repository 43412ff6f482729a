// Who may use the backoffice: a member of the tenant holding the role `staff`
// or `admin` (super-admin and service tokens hold every role). The core's
// route access names one role, so staff routes declare a required tenant and
// check the pair here; the GraphQL fields check the same pair.
import { GraphQLError } from 'graphql';
import { forbidden, principalOf, requireMember, requirePrincipal, rolesIn, tenantOf, type GraphqlContext, type Request } from 'agent-platform/sdk';

export const STAFF_ROLES = ['staff', 'admin'];

function holdsStaff(roles: string[] | 'all'): boolean {
  return roles === 'all' || roles.some((role) => STAFF_ROLES.includes(role));
}

/** The tenant of a staff route's request; 403 ROLE_REQUIRED without `staff` or `admin`. */
export function staffTenant(request: Request): string {
  const tenantId = tenantOf(request);
  if (!holdsStaff(rolesIn(principalOf(request), tenantId))) {
    throw forbidden(`This operation needs the role "staff" or "admin" in tenant ${tenantId}`, 'ROLE_REQUIRED');
  }
  return tenantId;
}

/** GraphQL's staff fields: the same principals and roles as the staff routes. */
export function requireStaff(context: GraphqlContext): string {
  const tenantId = requireMember(context);
  if (!holdsStaff(rolesIn(requirePrincipal(context), tenantId))) {
    throw new GraphQLError(`This field needs the role "staff" or "admin" in tenant ${tenantId}`, { extensions: { code: 'ROLE_REQUIRED' } });
  }
  return tenantId;
}
