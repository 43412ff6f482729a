// SQL of transform artifacts: tenant transactions only.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

const summary = ['id', 'transform_id', sql<string>`run_id::text`.as('run_id'), 'kind', 'name', 'content_type',
  sql<number>`octet_length(content)`.as('size_bytes'), 'created_at'] as const;

export const artifactsStore = {
  insertMany: (trx: TenantTransaction, tenantId: string, transformId: string, runId: string,
    items: { kind: 'compiled_sql' | 'logs' | 'output_summary'; name: string; content_type: string; content: string }[]) =>
    trx.insertInto('transform_artifacts').values(items.map((item) => ({ ...item, tenant_id: tenantId, transform_id: transformId, run_id: runId }))).execute(),

  list: (trx: TenantTransaction, filter: { transformId?: string; runId?: string; kind?: string; limit: number; offset: number }) => {
    let query = trx.selectFrom('transform_artifacts').select([...summary]);
    if (filter.transformId) query = query.where('transform_id', '=', filter.transformId);
    if (filter.runId) query = query.where('run_id', '=', sql<string>`${filter.runId}::bigint`);
    if (filter.kind) query = query.where('kind', '=', filter.kind as never);
    return query.orderBy('created_at', 'desc').orderBy('id').limit(filter.limit).offset(filter.offset).execute();
  },

  find: (trx: TenantTransaction, id: string) => trx.selectFrom('transform_artifacts').select([...summary]).where('id', '=', id).executeTakeFirst(),

  content: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('transform_artifacts').select([...summary, 'content']).where('id', '=', id).executeTakeFirst(),
};

export type ArtifactRow = NonNullable<Awaited<ReturnType<typeof artifactsStore.find>>>;
