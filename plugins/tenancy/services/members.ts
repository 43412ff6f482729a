// A tenant's members for other plugins (api.ts TenancyApi.members): each user
// shows only its membership of the tenant asked about, never its others.
import type { CoreServices } from 'agent-platform/sdk';
import type { TenantMember, TenantMembers } from '../api.ts';
import { usersStore, type Memberships } from '../store/tenancy.ts';

const memberOf = (tenantId: string, user: { sub: string; display_name: string; service_account: boolean; organizations: Memberships; created_at: Date }): TenantMember => ({
  sub: user.sub, display_name: user.display_name, service_account: user.service_account,
  roles: user.organizations[tenantId]?.roles ?? [], created_at: user.created_at,
});

export function createMembers(core: Pick<CoreServices, 'db'>): TenantMembers {
  const { db } = core;
  return {
    async list(tenantId, page) {
      const { items, total } = await usersStore.membersOf(db, tenantId, page.offset, page.limit);
      return { items: items.map((user) => memberOf(tenantId, user as never)), total };
    },
    async get(tenantId, sub) {
      const user = await usersStore.get(db, sub);
      return user && Object.hasOwn(user.organizations as object, tenantId) ? memberOf(tenantId, user as never) : null;
    },
  };
}
