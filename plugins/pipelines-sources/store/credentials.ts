// SQL of sealed credentials (pipeline_credentials, vault mode), in tenant
// transactions. The sealed column is read only by `sealed`.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

const metadata = ['ref', 'name', 'kind', 'field_names', 'version', 'status', 'rotated_at', 'created_at'] as const;
const references = sql<number>`(SELECT count(*)::int FROM pipeline_sources s WHERE s.credential_ref = pipeline_credentials.ref)`.as('reference_count');

export const credentialsStore = {
  insert: (trx: TenantTransaction, row: { tenant_id: string; ref: string; name: string; kind: string; field_names: string[]; sealed: string }) =>
    trx.insertInto('pipeline_credentials').values(row).execute(),

  metadata: (trx: TenantTransaction, ref: string) =>
    trx.selectFrom('pipeline_credentials').select([...metadata, references]).where('ref', '=', ref).executeTakeFirst(),

  sealed: (trx: TenantTransaction, ref: string) =>
    trx.selectFrom('pipeline_credentials').select(['ref', 'kind', 'version', 'status', 'sealed', 'field_names']).where('ref', '=', ref).executeTakeFirst(),

  lock: (trx: TenantTransaction, ref: string) =>
    trx.selectFrom('pipeline_credentials').select(['ref', 'kind', 'version', 'status', 'sealed', 'field_names']).where('ref', '=', ref).forUpdate().executeTakeFirst(),

  rotate: (trx: TenantTransaction, ref: string, row: { sealed: string; version: number; field_names: string[] }) =>
    trx.updateTable('pipeline_credentials').set({ ...row, rotated_at: sql`now()` as never }).where('ref', '=', ref).execute(),

  revoke: (trx: TenantTransaction, ref: string) =>
    trx.updateTable('pipeline_credentials').set({ status: 'revoked' }).where('ref', '=', ref).execute(),
};

export type CredentialMetadata = NonNullable<Awaited<ReturnType<typeof credentialsStore.metadata>>>;
