// Service accounts made by other plugins for one purpose (the embed plugin's
// credential of a client): created (by default a member of no tenant), their
// secret rotated, deleted. The secret is returned only here,
// once; only its hash is stored. Exposed as api.ts TenancyApi.serviceAccounts.
import { conflict, hashSecret, notFound, randomToken, type CoreServices } from 'agent-platform/sdk';
import { serviceAccountsStore, usersStore } from '../store/tenancy.ts';
import type { ServiceAccounts } from '../api.ts';

const newSecret = () => `cs_${randomToken(32)}`;

export function createServiceAccounts(core: Pick<CoreServices, 'db'>): ServiceAccounts {
  const { db } = core;
  return {
    async create(input) {
      if (await usersStore.get(db, input.sub)) throw conflict(`User already exists: ${input.sub}`, 'USER_EXISTS');
      const clientSecret = newSecret();
      await usersStore.insert(db, {
        sub: input.sub, display_name: input.displayName, organizations: input.memberships ?? {},
        service_account: true, secret_hash: hashSecret(clientSecret),
      });
      return { sub: input.sub, clientSecret };
    },
    async rotate(sub) {
      const clientSecret = newSecret();
      if (!(await serviceAccountsStore.setSecret(db, sub, hashSecret(clientSecret)))) throw notFound(`Service account not found: ${sub}`, 'USER_NOT_FOUND');
      return { sub, clientSecret };
    },
    remove: (sub) => serviceAccountsStore.delete(db, sub),
  };
}
