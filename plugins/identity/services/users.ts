// The data-pipeline users (/users): the members of the
// tenant with their roles in it, from the tenancy plugin's api; never a user's
// membership of another tenant, never a user of another tenant.
import { forbidden, holdsRole, notFound, rolesIn, type Principal } from 'agent-platform/sdk';
import type { TenancyApi } from '../../tenancy/api.ts';
import { EDITOR_ROLES } from '../access.ts';

export function createUserService(tenancy: () => TenancyApi) {
  return {
    list: (tenantId: string, page: { limit: number; offset: number }) =>
      tenancy().members.list(tenantId, page).then((result) => ({ ...result, ...page })),
    /** A member reads itself; reading another member needs admin or pipeline_editor. */
    async get(tenantId: string, principal: Principal, sub: string) {
      if (principal.sub !== sub && !holdsRole(rolesIn(principal, tenantId), EDITOR_ROLES)) {
        throw forbidden(`Reading another member needs one of the roles ${EDITOR_ROLES.join(', ')}`, 'ROLE_REQUIRED');
      }
      const member = await tenancy().members.get(tenantId, sub);
      if (!member) throw notFound(`No member "${sub}" in this tenant`, 'USER_NOT_FOUND');
      return member;
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
