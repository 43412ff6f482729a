// SQL of the tenant schema registry (tenant transactions only).
import { type KeysetPage, sql, type TenantTransaction } from 'agent-platform/sdk';
import type { RegistrySource } from './tables.ts';

const columns = ['id', 'subject', 'version', 'domain', 'description', 'schema', 'fingerprint', 'source', 'dataset_id', 'created_by', 'created_at'] as const;

export interface RegistryRow {
  id: string;
  subject: string;
  version: number;
  domain: string | null;
  description: string;
  schema: Record<string, unknown>;
  fingerprint: string;
  source: RegistrySource;
  dataset_id: string | null;
  created_by: string | null;
  created_at: Date;
}

export interface RegistryFilter {
  subject?: string;
  domain?: string;
  source?: RegistrySource;
}

/** The latest version of every subject (of the filter). */
function latest(trx: TenantTransaction, filter: RegistryFilter) {
  let query = trx.selectFrom('schema_registry').distinctOn('subject').select([...columns]);
  if (filter.subject) query = query.where('subject', '=', filter.subject);
  if (filter.domain) query = query.where('domain', '=', filter.domain);
  if (filter.source) query = query.where('source', '=', filter.source);
  return query.orderBy('subject').orderBy('version', 'desc');
}

export const registryStore = {
  latestOf: (trx: TenantTransaction, subject: string) =>
    trx.selectFrom('schema_registry').select([...columns]).where('subject', '=', subject).orderBy('version', 'desc').limit(1).executeTakeFirst() as Promise<RegistryRow | undefined>,
  version: (trx: TenantTransaction, subject: string, version: number) =>
    trx.selectFrom('schema_registry').select([...columns]).where('subject', '=', subject).where('version', '=', version).executeTakeFirst() as Promise<RegistryRow | undefined>,
  insert: (trx: TenantTransaction, tenantId: string, row: Omit<RegistryRow, 'id' | 'created_at'>) =>
    trx.insertInto('schema_registry').values({ ...row, tenant_id: tenantId, schema: JSON.stringify(row.schema) })
      .returning([...columns]).executeTakeFirstOrThrow() as Promise<RegistryRow>,
  list: (trx: TenantTransaction, filter: RegistryFilter, page: { limit: number; offset: number }) =>
    trx.selectFrom(latest(trx, filter).as('l')).selectAll().orderBy('subject').limit(page.limit).offset(page.offset).execute() as Promise<RegistryRow[]>,
  /** A keyset page of latest versions by subject, forward or backward as KeysetPage says. */
  page: (trx: TenantTransaction, filter: RegistryFilter, page: KeysetPage<string>) => {
    const forward = page.direction === 'forward';
    let query = trx.selectFrom(latest(trx, filter).as('l')).selectAll();
    if (page.cursor !== undefined) query = query.where('subject', forward ? '>' : '<', page.cursor);
    return query.orderBy('subject', forward ? 'asc' : 'desc').limit(page.limit).execute() as Promise<RegistryRow[]>;
  },
  count: async (trx: TenantTransaction, filter: RegistryFilter) =>
    Number((await trx.selectFrom(latest(trx, filter).as('l')).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n),
  /**
   * Latest versions whose subject is similar to the query (trigrams), or whose
   * subject, description or property names contain it; most similar first.
   */
  search: (trx: TenantTransaction, q: string, filter: RegistryFilter, limit: number) => {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return trx.selectFrom(latest(trx, filter).as('l')).selectAll()
      .select(sql<number>`similarity(subject, ${q})`.as('score'))
      .where((eb) => eb.or([
        sql<boolean>`subject % ${q}`,
        eb('subject', 'ilike', like),
        eb('description', 'ilike', like),
        sql<boolean>`EXISTS (SELECT 1 FROM jsonb_object_keys(CASE WHEN jsonb_typeof(schema->'properties') = 'object' THEN schema->'properties' ELSE '{}' END) k WHERE k ILIKE ${like})`,
      ]))
      .orderBy('score', 'desc').orderBy('subject').limit(limit).execute() as Promise<(RegistryRow & { score: number })[]>;
  },
};
