// Webhook administration: event-webhook definitions (name, description, a
// hashed secret) and the tenant's signing secret for signed resume (sealed).
// Knows nothing of HTTP; the admin routes and the CLI call this.
import { conflict, type CoreServices, hashSecret, notFound, randomToken } from 'agent-platform/sdk';
import { definitionsStore, signingSecretsStore } from '../store/webhooks.ts';

/** AES-GCM additional data: a sealed secret opens only as this tenant's signing secret. */
export const signingSecretContext = (tenantId: string) => `webhook-signing-secret:${tenantId}`;

/** 32 random bytes as 64 hex characters. */
const newSecret = () => randomToken(32);

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string }).code === '23505';
}

export function createWebhooksService(core: Pick<CoreServices, 'withTenant' | 'secrets'>) {
  const { withTenant, secrets } = core;
  const missing = (name: string) => notFound(`Webhook not found: ${name}`, 'WEBHOOK_NOT_FOUND');

  return {
    /** The secret is returned here and by rotate only; the table keeps its hash. */
    async create(tenantId: string, input: { name: string; description?: string }) {
      const secret = newSecret();
      try {
        const webhook = await withTenant(tenantId, (trx) =>
          definitionsStore.insert(trx, { tenant_id: tenantId, name: input.name, description: input.description ?? '', secret_hash: hashSecret(secret) }));
        return { webhook, secret };
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`Webhook already exists: ${input.name}`, 'WEBHOOK_EXISTS');
        throw err;
      }
    },
    list: async (tenantId: string) => {
      const items = await withTenant(tenantId, (trx) => definitionsStore.list(trx));
      return { items, total: items.length };
    },
    async get(tenantId: string, name: string) {
      const found = await withTenant(tenantId, (trx) => definitionsStore.get(trx, name));
      if (!found) throw missing(name);
      return found;
    },
    async remove(tenantId: string, name: string) {
      if (!(await withTenant(tenantId, (trx) => definitionsStore.delete(trx, name)))) throw missing(name);
    },
    /** Replaces the hash in place: the old secret stops matching with this commit. */
    async rotate(tenantId: string, name: string) {
      const secret = newSecret();
      const webhook = await withTenant(tenantId, (trx) => definitionsStore.rotate(trx, name, hashSecret(secret)));
      if (!webhook) throw missing(name);
      return { webhook, secret };
    },

    /** Creates the tenant's signing secret, or rotates it (the old one is invalid at once); shown only here. */
    async setSigningSecret(tenantId: string) {
      const secret = newSecret();
      const sealed = secrets.seal(secret, signingSecretContext(tenantId));
      const row = await withTenant(tenantId, (trx) => signingSecretsStore.upsert(trx, tenantId, sealed));
      return { secret, created_at: row.created_at, rotated_at: row.rotated_at, created: row.created };
    },
    async signingSecretStatus(tenantId: string) {
      const row = await withTenant(tenantId, (trx) => signingSecretsStore.info(trx));
      return { configured: Boolean(row), created_at: row?.created_at ?? null, rotated_at: row?.rotated_at ?? null };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
