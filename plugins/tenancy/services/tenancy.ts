// Tenancy domain logic: tenants, clients, API keys, users and their tokens.
// Knows nothing of HTTP; the routes, the CLI and GraphQL all call this.
import { randomBytes } from 'node:crypto';
import {
  badRequest, conflict, type CoreServices, domainError, type KeysetPage, forbidden, hashSecret, isValidTenantAlias, notFound, type Principal, randomToken, rolesIn, secretMatches, unauthorized,
} from 'agent-platform/sdk';
import { apiKeysStore, clientsStore, tenantsStore, usersStore, type Memberships } from '../store/tenancy.ts';
import { API_KEYS_CHANNEL, ApiKeyCache } from './api-key-cache.ts';

const API_KEY_PREFIX = 'pk';
/** The client every tenant is created with (POST /api/sessions acts for the oldest client when none is named). */
export const DEFAULT_CLIENT_NAME = 'default';

const newClientKey = () => `ck_${randomToken(12)}`;

export interface CreateUserInput {
  sub: string;
  display_name: string;
  organizations?: string[] | Record<string, { roles?: string[] }>;
  roles: string[];
  service_account: boolean;
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string }).code === '23505';
}

export function createTenancyService(core: Pick<CoreServices, 'db' | 'withTenant' | 'auth' | 'tenants' | 'invalidation'>) {
  const { db, withTenant } = core;
  const apiKeys = new ApiKeyCache();
  core.invalidation.subscribe(API_KEYS_CHANNEL, { message: () => apiKeys.clear(), missed: () => apiKeys.clear() });
  /** Every process forgets its keys: after a revoke or a client's deletion has committed (or failed). */
  const keysChanged = async () => {
    apiKeys.clear();
    await core.invalidation.publish(API_KEYS_CHANNEL);
  };

  function normalizeOrganizations(input: CreateUserInput, requestTenant: string | undefined): Memberships {
    const given = input.organizations ?? (requestTenant ? [requestTenant] : undefined);
    if (!given) throw badRequest('organizations is required without a tenant (X-Tenant-ID)', 'TENANT_REQUIRED');
    const entries: [string, string[]][] = Array.isArray(given)
      ? given.map((alias) => [alias, input.roles])
      : Object.entries(given).map(([alias, value]) => [alias, value.roles ?? input.roles]);
    return Object.fromEntries(entries.map(([alias, roles]) => [alias, { roles: [...new Set(roles)] }]));
  }

  const service = {
    /**
     * A tenant with its default client, in one transaction: a tenant can chat
     * (POST /api/sessions) as soon as it exists. The transaction is the new
     * tenant's own (withTenant), so the client row passes row-level security.
     */
    async createTenant(input: { id: string; display_name?: string }) {
      try {
        const created = await withTenant(input.id, async (trx) => {
          const tenant = await tenantsStore.insert(trx, { id: input.id, display_name: input.display_name ?? input.id });
          const client = await clientsStore.insert(trx, { tenant_id: input.id, name: DEFAULT_CLIENT_NAME, client_key: newClientKey() });
          return { ...tenant, default_client: client };
        });
        core.tenants.forget(input.id);
        return created;
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`Tenant already exists: ${input.id}`, 'TENANT_EXISTS');
        throw err;
      }
    },
    listTenants: (skip = 0, limit = 50) => tenantsStore.list(db, skip, limit),
    async getTenant(id: string) {
      const found = await tenantsStore.get(db, id);
      if (!found) throw notFound(`Tenant not found: ${id}`, 'TENANT_NOT_FOUND');
      return found;
    },

    async createClient(tenantId: string, input: { name: string; client_key?: string }) {
      const clientKey = input.client_key ?? newClientKey();
      try {
        return await withTenant(tenantId, (trx) => clientsStore.insert(trx, { tenant_id: tenantId, name: input.name, client_key: clientKey }));
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`client_key is already taken: ${clientKey}`, 'CLIENT_KEY_TAKEN');
        throw err;
      }
    },
    listClients: (tenantId: string, skip = 0, limit = 50) => withTenant(tenantId, (trx) => clientsStore.list(trx, skip, limit)),
    /** A keyset page of the tenant's clients by id (GraphQL). */
    clientsPage: (tenantId: string, page: KeysetPage<number>) => withTenant(tenantId, (trx) => clientsStore.page(trx, page)),
    countClients: (tenantId: string) => withTenant(tenantId, (trx) => clientsStore.count(trx)),
    async getClient(tenantId: string, id: number) {
      const found = await withTenant(tenantId, (trx) => clientsStore.get(trx, id));
      if (!found) throw notFound(`Client not found: ${id}`, 'CLIENT_NOT_FOUND');
      return found;
    },
    async renameClient(tenantId: string, id: number, name: string) {
      const renamed = await withTenant(tenantId, (trx) => clientsStore.rename(trx, id, name));
      if (!renamed) throw notFound(`Client not found: ${id}`, 'CLIENT_NOT_FOUND');
      return renamed;
    },
    async deleteClient(tenantId: string, id: number) {
      // Its API keys go with it.
      apiKeys.clear();
      const deleted = await withTenant(tenantId, (trx) => clientsStore.delete(trx, id)).finally(keysChanged);
      if (!deleted) throw notFound(`Client not found: ${id}`, 'CLIENT_NOT_FOUND');
    },

    /** The key is returned here once; only its hash is stored. */
    async createApiKey(tenantId: string, input: { name: string; client_id: number }) {
      const secret = randomBytes(32).toString('hex');
      const key = `${API_KEY_PREFIX}_${tenantId}_${secret}`;
      return withTenant(tenantId, async (trx) => {
        if (!(await clientsStore.get(trx, input.client_id))) throw notFound(`Client not found: ${input.client_id}`, 'CLIENT_NOT_FOUND');
        const row = await apiKeysStore.insert(trx, {
          tenant_id: tenantId,
          client_id: input.client_id,
          name: input.name,
          key_prefix: key.slice(0, API_KEY_PREFIX.length + tenantId.length + 10),
          key_hash: hashSecret(key),
        });
        return { ...row, key };
      });
    },
    listApiKeys: (tenantId: string, clientId?: number) => withTenant(tenantId, (trx) => apiKeysStore.list(trx, clientId)),
    async revokeApiKey(tenantId: string, id: number) {
      apiKeys.clear();
      const revoked = await withTenant(tenantId, (trx) => apiKeysStore.revoke(trx, id)).finally(keysChanged);
      if (!revoked) throw notFound(`Active API key not found: ${id}`, 'API_KEY_NOT_FOUND');
    },

    /**
     * Auth's API-key lookup: the key names its tenant, so the lookup runs under
     * that tenant's RLS. Found keys are kept briefly (api-key-cache.ts).
     */
    async resolveApiKey(key: string): Promise<Principal | undefined> {
      const [prefix, tenantId, secret] = key.split('_');
      if (prefix !== API_KEY_PREFIX || !isValidTenantAlias(tenantId) || !/^[0-9a-f]{64}$/.test(secret ?? '')) return undefined;
      return apiKeys.resolve(key, () => withTenant(tenantId, async (trx) => {
        const found = await apiKeysStore.findActive(trx, hashSecret(key));
        if (!found) return undefined;
        // last_used_at is kept to the minute, so a busy key does not write on every request.
        if (!found.last_used_at || Date.now() - found.last_used_at.getTime() > 60_000) await apiKeysStore.touch(trx, found.id);
        return { kind: 'api_key', sub: `api-key:${found.id}`, tenantId, clientId: found.client_id, keyId: found.id } as Principal;
      }));
    },

    /**
     * Creates a user, or adds memberships to an existing one (201 vs 200).
     * Only the super-admin and service tokens may name tenants other than the request's.
     */
    async upsertUser(principal: Principal, requestTenant: string | undefined, input: CreateUserInput) {
      const organizations = normalizeOrganizations(input, requestTenant);
      const aliases = Object.keys(organizations);
      const crossTenant = principal.kind === 'super_admin' || principal.kind === 'service';
      if (!crossTenant) {
        if (!requestTenant) throw badRequest('A tenant is required: send X-Tenant-ID', 'TENANT_REQUIRED');
        const foreign = aliases.filter((alias) => alias !== requestTenant);
        if (foreign.length) throw forbidden(`Not allowed to grant membership of ${foreign.join(', ')}`, 'TENANT_FORBIDDEN');
      }
      const existing = await tenantsStore.existing(db, aliases);
      const missing = aliases.filter((alias) => !existing.includes(alias));
      if (missing.length) throw notFound(`Tenant not found: ${missing.join(', ')}`, 'TENANT_NOT_FOUND');

      const current = await usersStore.get(db, input.sub);
      if (current) {
        if (current.service_account !== input.service_account) {
          throw conflict(`User ${input.sub} exists with service_account=${current.service_account}`, 'USER_EXISTS');
        }
        // The display name is the user's own across tenants: only a cross-tenant principal changes it.
        const displayName = crossTenant ? input.display_name : current.display_name;
        const merged = await usersStore.mergeMemberships(db, input.sub, displayName, organizations);
        // A tenant admin sees only its own tenant's membership, as in the member list.
        const visible = crossTenant ? merged.organizations : { [requestTenant!]: merged.organizations[requestTenant!] };
        return { created: false, user: { ...merged, organizations: visible } };
      }
      const clientSecret = input.service_account ? `cs_${randomToken(32)}` : undefined;
      try {
        const user = await usersStore.insert(db, {
          sub: input.sub,
          display_name: input.display_name,
          organizations,
          service_account: input.service_account,
          secret_hash: clientSecret ? hashSecret(clientSecret) : null,
        });
        return { created: true, user: clientSecret ? { ...user, client_secret: clientSecret } : user };
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`User already exists: ${input.sub}`, 'USER_EXISTS');
        throw err;
      }
    },

    /**
     * Replaces a member's roles in the tenant (its other memberships are not
     * seen nor touched). A person may not drop its own admin role: another
     * admin does, so a tenant never loses its last admin by a slip.
     */
    async setMemberRoles(principal: Principal, tenantId: string, sub: string, roles: string[]) {
      const unique = [...new Set(roles)];
      if (isSelf(principal, sub) && !unique.includes('admin')) {
        throw conflict('You cannot remove your own admin role; another admin of the tenant can', 'OWN_ADMIN_ROLE');
      }
      const user = await usersStore.setRoles(db, sub, tenantId, unique);
      if (!user) throw notFound(`User not found: ${sub}`, 'USER_NOT_FOUND');
      return { ...user, organizations: { [tenantId]: user.organizations[tenantId] } };
    },

    /** Removes a member from the tenant; the user keeps its other memberships. Not oneself (see setMemberRoles). */
    async removeMember(principal: Principal, tenantId: string, sub: string) {
      if (isSelf(principal, sub)) throw conflict('You cannot remove yourself from the tenant; another admin of the tenant can', 'OWN_ADMIN_ROLE');
      if (!(await usersStore.removeMembership(db, sub, tenantId))) throw notFound(`User not found: ${sub}`, 'USER_NOT_FOUND');
    },

    /** Members of a tenant; each shows only its membership of that tenant. */
    async listMembers(tenantId: string, skip = 0, limit = 50) {
      const page = await usersStore.membersOf(db, tenantId, skip, limit);
      return { ...page, items: page.items.map((user) => ({ ...user, organizations: { [tenantId]: user.organizations[tenantId] } })) };
    },

    /** A token for a user: for one tenant when asked by that tenant's admin, for all its memberships by the super-admin. */
    async issueUserToken(principal: Principal, requestTenant: string | undefined, sub: string) {
      const user = await usersStore.get(db, sub);
      const crossTenant = principal.kind === 'super_admin' || principal.kind === 'service';
      if (!crossTenant && !requestTenant) throw badRequest('A tenant is required: send X-Tenant-ID', 'TENANT_REQUIRED');
      if (!user || (requestTenant && !user.organizations[requestTenant])) throw notFound(`User not found: ${sub}`, 'USER_NOT_FOUND');
      const organizations = requestTenant ? { [requestTenant]: user.organizations[requestTenant] } : user.organizations;
      return core.auth.tokens.issueUserToken({ sub: user.sub, organizations, serviceAccount: user.service_account });
    },

    whoami(principal: Principal, tenantId: string | undefined) {
      const roles = tenantId ? rolesIn(principal, tenantId) : [];
      return {
        kind: principal.kind,
        sub: principal.sub,
        tenant_id: tenantId ?? null,
        client_id: principal.kind === 'api_key' ? principal.clientId : null,
        roles: roles === 'all' ? ['*'] : roles,
        tenants: tenantsOf(principal),
      };
    },

    /** OAuth 2.0 client_credentials: a service account trades its secret for a token. */
    async clientCredentialsToken(input: { grant_type: string; client_id?: string; client_secret?: string }) {
      if (input.grant_type !== 'client_credentials') {
        throw oauthError(400, 'unsupported_grant_type', 'Only the client_credentials grant is supported');
      }
      if (!input.client_id || !input.client_secret) throw oauthError(401, 'invalid_client', 'client_id and client_secret are required');
      const user = await usersStore.get(db, input.client_id);
      if (!user?.service_account || !user.secret_hash || !secretMatches(input.client_secret, user.secret_hash)) {
        throw oauthError(401, 'invalid_client', 'Unknown client or wrong secret');
      }
      return core.auth.tokens.issueUserToken({ sub: user.sub, organizations: user.organizations, serviceAccount: true });
    },
  };
  return service;
}

/** Whether `sub` is the calling user itself. */
function isSelf(principal: Principal, sub: string): boolean {
  return principal.kind === 'user' && principal.sub === sub;
}

/** The tenants a principal belongs to and its roles in each; null when it reaches every tenant. */
function tenantsOf(principal: Principal): { id: string; roles: string[] }[] | null {
  switch (principal.kind) {
    case 'super_admin':
    case 'service':
      return null;
    case 'api_key':
    case 'embed':
      return [{ id: principal.tenantId, roles: [] }];
    case 'user':
      return Object.entries(principal.memberships ?? {}).map(([id, { roles }]) => ({ id, roles })).sort((a, b) => a.id.localeCompare(b.id));
  }
}

/** OAuth errors keep RFC 6749's `error` code, alongside the platform's fields. */
function oauthError(status: 400 | 401, error: string, description: string) {
  const err = status === 401 ? unauthorized(description, error) : domainError(status, description, error);
  Object.assign(err.output.payload, { error, error_description: description });
  return err;
}

export type TenancyService = ReturnType<typeof createTenancyService>;
