// kysely queries for the webhooks tables. Every table is tenant-owned, so
// every query takes a tenant transaction (row-level security picks the rows).
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

const definitionColumns = ['name', 'description', 'created_at', 'rotated_at'] as const;

export const definitionsStore = {
  insert: (trx: TenantTransaction, values: { tenant_id: string; name: string; description: string; secret_hash: string }) =>
    trx.insertInto('webhook_definitions').values(values).returning([...definitionColumns]).executeTakeFirstOrThrow(),
  list: (trx: TenantTransaction) => trx.selectFrom('webhook_definitions').select([...definitionColumns]).orderBy('name').execute(),
  get: (trx: TenantTransaction, name: string) =>
    trx.selectFrom('webhook_definitions').select([...definitionColumns]).where('name', '=', name).executeTakeFirst(),
  secretHash: async (trx: TenantTransaction, name: string) =>
    (await trx.selectFrom('webhook_definitions').select('secret_hash').where('name', '=', name).executeTakeFirst())?.secret_hash,
  rotate: (trx: TenantTransaction, name: string, secretHash: string) =>
    trx.updateTable('webhook_definitions')
      .set({ secret_hash: secretHash, rotated_at: sql`now()` as never })
      .where('name', '=', name)
      .returning([...definitionColumns])
      .executeTakeFirst(),
  delete: async (trx: TenantTransaction, name: string) =>
    (await trx.deleteFrom('webhook_definitions').where('name', '=', name).executeTakeFirst()).numDeletedRows > 0n,
};

export const signingSecretsStore = {
  sealed: async (trx: TenantTransaction) =>
    (await trx.selectFrom('webhook_signing_secrets').select('sealed_secret').executeTakeFirst())?.sealed_secret,
  info: (trx: TenantTransaction) =>
    trx.selectFrom('webhook_signing_secrets').select(['created_at', 'rotated_at']).executeTakeFirst(),
  /** Creates the tenant's secret or replaces it; `created` tells which. */
  upsert: async (trx: TenantTransaction, tenantId: string, sealedSecret: string) => {
    const row = await trx.insertInto('webhook_signing_secrets')
      .values({ tenant_id: tenantId, sealed_secret: sealedSecret })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ sealed_secret: sealedSecret, rotated_at: sql`now()` as never }))
      .returning(['created_at', 'rotated_at'])
      .executeTakeFirstOrThrow();
    return { ...row, created: row.rotated_at === null };
  },
};

export const deliveriesStore = {
  /**
   * Records an X-Webhook-Id unless the same id was recorded within the window
   * before `at`. The primary key makes this atomic across processes: of two
   * concurrent claims one inserts, the other waits for it and sees a duplicate.
   * An expired record is taken over. Returns false for a duplicate.
   */
  claim: async (trx: TenantTransaction, tenantId: string, scope: string, webhookId: string, at: Date, windowSeconds: number) => {
    const row = await trx.insertInto('webhook_deliveries')
      .values({ tenant_id: tenantId, scope, webhook_id: webhookId, received_at: at })
      .onConflict((oc) => oc.columns(['tenant_id', 'scope', 'webhook_id'])
        .doUpdateSet({ received_at: at })
        .where('webhook_deliveries.received_at', '<=', new Date(at.getTime() - windowSeconds * 1000)))
      .returning('received_at')
      .executeTakeFirst();
    return row !== undefined;
  },
  /** Gives a claimed id back (the request it belonged to was not delivered). */
  release: (trx: TenantTransaction, scope: string, webhookId: string, at: Date) =>
    trx.deleteFrom('webhook_deliveries')
      .where('scope', '=', scope).where('webhook_id', '=', webhookId).where('received_at', '=', at)
      .execute(),
  /** Gives an accepted signature back with its id (signed resume, signal not delivered). */
  releaseSignature: (trx: TenantTransaction, signatureHash: string, at: Date) =>
    trx.deleteFrom('webhook_signatures')
      .where('signature_hash', '=', signatureHash).where('accepted_at', '=', at)
      .execute(),
  /** Replay records whose block has ended (they no longer refuse anything). */
  pruneSignatures: async (trx: TenantTransaction, now: Date) =>
    Number((await trx.deleteFrom('webhook_signatures').where('expires_at', '<=', now).executeTakeFirst()).numDeletedRows),
  prune: async (trx: TenantTransaction, before: Date) =>
    Number((await trx.deleteFrom('webhook_deliveries').where('received_at', '<=', before).executeTakeFirst()).numDeletedRows),
};

export const rateStore = {
  /**
   * Signed resume's three writes in one statement (one round trip): claims the
   * X-Webhook-Id as deliveriesStore.claim does; only if that succeeded, records
   * the signature (refused while an earlier record of it has not expired: a
   * replay); only if that succeeded too, counts one request in the tenant's
   * window unless it is full (then the window is left unchanged). The primary
   * keys make both claims atomic across processes (a concurrent second insert
   * waits for the first and then sees it); the window upsert's row lock
   * serializes a tenant's concurrent requests, so the count never overshoots.
   * The caller rolls the transaction back unless all three succeeded.
   */
  claimAndTake: async (
    trx: TenantTransaction,
    claim: { tenantId: string; scope: string; webhookId: string; at: Date; windowSeconds: number },
    signature: { hash: string; expiresAt: Date },
    budget: { windowStart: Date; limit: number },
  ) => {
    const expired = new Date(claim.at.getTime() - claim.windowSeconds * 1000);
    const { rows } = await sql<{ claimed: boolean; unused: boolean; taken: boolean }>`
      WITH claim AS (
        INSERT INTO webhook_deliveries (tenant_id, scope, webhook_id, received_at)
        VALUES (${claim.tenantId}, ${claim.scope}, ${claim.webhookId}, ${claim.at})
        ON CONFLICT (tenant_id, scope, webhook_id) DO UPDATE SET received_at = excluded.received_at
          WHERE webhook_deliveries.received_at <= ${expired}
        RETURNING 1
      ), unused AS (
        INSERT INTO webhook_signatures (tenant_id, signature_hash, accepted_at, expires_at)
        SELECT ${claim.tenantId}, ${signature.hash}, ${claim.at}, ${signature.expiresAt} WHERE EXISTS (SELECT 1 FROM claim)
        ON CONFLICT (tenant_id, signature_hash) DO UPDATE SET accepted_at = excluded.accepted_at, expires_at = excluded.expires_at
          WHERE webhook_signatures.expires_at <= ${claim.at}
        RETURNING 1
      ), taken AS (
        INSERT INTO webhook_rate (tenant_id, window_start, count)
        SELECT ${claim.tenantId}, ${budget.windowStart}, 1 WHERE EXISTS (SELECT 1 FROM unused)
        ON CONFLICT (tenant_id, window_start) DO UPDATE SET count = webhook_rate.count + 1
          WHERE webhook_rate.count < ${budget.limit}
        RETURNING 1
      )
      SELECT EXISTS (SELECT 1 FROM claim) AS claimed, EXISTS (SELECT 1 FROM unused) AS unused,
        EXISTS (SELECT 1 FROM taken) AS taken`.execute(trx);
    return rows[0];
  },
  prune: async (trx: TenantTransaction, before: Date) =>
    Number((await trx.deleteFrom('webhook_rate').where('window_start', '<', before).executeTakeFirst()).numDeletedRows),
};
