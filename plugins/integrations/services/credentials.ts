// Credentials applied at call time: a client's (set by a
// tenant admin), a chat session's (set by the session's owner), and the
// tenant's secret store that a spec's auth_credential_source names. Values
// are sealed on the way in and never come back out.
//
// Each is bound to the origin it is entered for (origin-binding.ts): a
// client or session credential to its spec's (so the spec must be imported
// first), a secret to those of the specs that name it when it is entered (so
// those specs are imported first). A credential entered for no origin would
// be bound to whichever server named it first.
import { conflict, forbidden, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { IntegrationsContext } from './context.ts';
import { bindingOf } from '../sealing/origin-binding.ts';
import { sealBound, sealContext } from '../sealing/sealing.ts';
import { clientCredentialsStore, secretsStore, sessionCredentialsStore } from '../store/credentials.ts';
import { specsStore } from '../store/specs.ts';

export interface CredentialInput {
  service_name: string;
  value: string;
  header?: string | null;
}

/**
 * Who owns a chat session, from the chat plugin when it is loaded: the owner,
 * null when the session does not exist, undefined when there is no one to ask.
 */
export type SessionOwnerLookup = (tenantId: string, sessionId: string) => Promise<{ sub: string } | null | undefined>;

export function createCredentialsService(context: IntegrationsContext, sessionOwner: SessionOwnerLookup) {
  const { withTenant, secrets } = context;

  async function checkSessionOwner(tenantId: string, sessionId: string, sub: string): Promise<void> {
    const owner = await sessionOwner(tenantId, sessionId);
    if (owner === null) throw notFound(`Session not found: ${sessionId}`, 'SESSION_NOT_FOUND');
    if (owner !== undefined) {
      if (owner.sub !== sub) throw forbidden('Only the owner of the session may manage its credentials', 'SESSION_FORBIDDEN');
      return;
    }
    // Without the chat plugin, the session's credentials belong to whoever stored the first one.
    const stored = await withTenant(tenantId, (trx) => sessionCredentialsStore.owner(trx, sessionId));
    if (stored !== undefined && stored !== sub) throw forbidden('Only the owner of the session may manage its credentials', 'SESSION_FORBIDDEN');
  }

  const clientMissing = (id: number) => notFound(`Client not found: ${id}`, 'CLIENT_NOT_FOUND');

  /** The binding of the spec a client or session credential is for; 404 when no spec has that name. */
  async function bindingForService(trx: TenantTransaction, serviceName: string): Promise<string> {
    const spec = await specsStore.bindingSourceByName(trx, serviceName);
    if (!spec) {
      throw notFound(`No imported spec is named "${serviceName}": import it first (a credential is bound to the server of the spec it is for)`, 'SPEC_NOT_FOUND');
    }
    return bindingOf(spec);
  }

  /** The bindings of the specs naming a secret-store key; 409 when none does. */
  async function bindingsForSecret(trx: TenantTransaction, key: string): Promise<string[]> {
    const bindings = [...new Set((await specsStore.bindingSourcesOfSecret(trx, key)).map(bindingOf))].sort();
    if (bindings.length === 0) {
      throw conflict(
        `No imported spec names "${key}" as its auth_credential_source: import the spec first (a secret is bound to the servers of the specs that name it when it is stored)`,
        'SECRET_NOT_NAMED',
      );
    }
    return bindings;
  }

  /** A change is seen by this process's next call at once (calls cache what they read). */
  async function changing<T>(tenantId: string, work: Promise<T>): Promise<T> {
    try {
      return await work;
    } finally {
      context.invalidate(tenantId);
    }
  }

  const service = {
    async setClientCredential(tenantId: string, clientId: number, input: CredentialInput) {
      return withTenant(tenantId, async (trx) => {
        if (!(await clientCredentialsStore.clientExists(trx, clientId))) throw clientMissing(clientId);
        const binding = await bindingForService(trx, input.service_name);
        const { created, ...row } = await clientCredentialsStore.upsert(trx, {
          tenant_id: tenantId, client_id: clientId, service_name: input.service_name, header: input.header ?? null,
          value_sealed: sealBound(secrets, input.value, sealContext.client(tenantId, clientId, input.service_name), binding),
          bound_origin: binding,
        });
        return { created, credential: { ...row, value_set: true } };
      });
    },

    listClientCredentials: (tenantId: string, clientId: number) =>
      withTenant(tenantId, async (trx) => {
        if (!(await clientCredentialsStore.clientExists(trx, clientId))) throw clientMissing(clientId);
        return (await clientCredentialsStore.list(trx, clientId)).map((row) => ({ ...row, value_set: true }));
      }),

    deleteClientCredential: (tenantId: string, clientId: number, serviceName: string) =>
      withTenant(tenantId, async (trx) => {
        if (!(await clientCredentialsStore.delete(trx, clientId, serviceName))) {
          throw notFound(`No credential for "${serviceName}" on client ${clientId}`, 'CREDENTIAL_NOT_FOUND');
        }
      }),

    async setSessionCredential(tenantId: string, sessionId: string, sub: string, input: CredentialInput & { ttl_seconds?: number }) {
      await checkSessionOwner(tenantId, sessionId, sub);
      const expires = input.ttl_seconds ? new Date(Date.now() + input.ttl_seconds * 1000) : null;
      return withTenant(tenantId, async (trx) => {
        // Checked again in the transaction: two first writers must not both become owners.
        const stored = await sessionCredentialsStore.owner(trx, sessionId);
        if (stored !== undefined && stored !== sub) throw forbidden('Only the owner of the session may manage its credentials', 'SESSION_FORBIDDEN');
        const binding = await bindingForService(trx, input.service_name);
        const { created, ...row } = await sessionCredentialsStore.upsert(trx, {
          tenant_id: tenantId, session_id: sessionId, service_name: input.service_name, header: input.header ?? null,
          value_sealed: sealBound(secrets, input.value, sealContext.session(tenantId, sessionId, input.service_name), binding),
          bound_origin: binding, owner_sub: sub, expires_at: expires,
        });
        return { created, credential: { ...row, value_set: true } };
      });
    },

    async listSessionCredentials(tenantId: string, sessionId: string, sub: string) {
      await checkSessionOwner(tenantId, sessionId, sub);
      return (await withTenant(tenantId, (trx) => sessionCredentialsStore.list(trx, sessionId))).map((row) => ({ ...row, value_set: true }));
    },

    async deleteSessionCredential(tenantId: string, sessionId: string, sub: string, serviceName: string) {
      await checkSessionOwner(tenantId, sessionId, sub);
      await withTenant(tenantId, async (trx) => {
        if (!(await sessionCredentialsStore.delete(trx, sessionId, serviceName))) {
          throw notFound(`No credential for "${serviceName}" in session ${sessionId}`, 'CREDENTIAL_NOT_FOUND');
        }
      });
    },

    setSecret: (tenantId: string, key: string, value: string) =>
      withTenant(tenantId, async (trx) => {
        const bindings = await bindingsForSecret(trx, key);
        const { created, ...row } = await secretsStore.upsert(trx, {
          tenant_id: tenantId, key, value_sealed: sealBound(secrets, value, sealContext.secret(tenantId, key), bindings), bound_origins: bindings,
        });
        return { created, secret: { ...row, value_set: true } };
      }),

    listSecrets: async (tenantId: string) =>
      (await withTenant(tenantId, (trx) => secretsStore.list(trx))).map((row) => ({ ...row, value_set: true })),

    deleteSecret: (tenantId: string, key: string) =>
      withTenant(tenantId, async (trx) => {
        if (!(await secretsStore.delete(trx, key))) throw notFound(`Secret not found: ${key}`, 'SECRET_NOT_FOUND');
      }),
  };

  return {
    ...service,
    setClientCredential: (tenantId: string, clientId: number, input: CredentialInput) =>
      changing(tenantId, service.setClientCredential(tenantId, clientId, input)),
    deleteClientCredential: (tenantId: string, clientId: number, serviceName: string) =>
      changing(tenantId, service.deleteClientCredential(tenantId, clientId, serviceName)),
    setSessionCredential: (tenantId: string, sessionId: string, sub: string, input: CredentialInput & { ttl_seconds?: number }) =>
      changing(tenantId, service.setSessionCredential(tenantId, sessionId, sub, input)),
    deleteSessionCredential: (tenantId: string, sessionId: string, sub: string, serviceName: string) =>
      changing(tenantId, service.deleteSessionCredential(tenantId, sessionId, sub, serviceName)),
    setSecret: (tenantId: string, key: string, value: string) => changing(tenantId, service.setSecret(tenantId, key, value)),
    deleteSecret: (tenantId: string, key: string) => changing(tenantId, service.deleteSecret(tenantId, key)),
  };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
