// How a write's rows arrive in a table of the write's transaction (the stage,
// or the lake table itself during a first load: store/rows.ts
// beginBulkLoad): COPY of the source's stream or of its encoded records, a
// tenant query inserted by the write's own statement, or — into a first load
// on an external PostgreSQL — the query piped out of a second, read-only
// tenant transaction as binary COPY, so that reading and writing run on two
// backends at once and the rows are written by COPY's batched inserts.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { onSecondConnection, sql, type CoreServices, type TenantSession } from 'agent-platform/sdk';
import type { WriteRequest } from '../api.ts';
import { encodeRows } from './copy-text.ts';
import { quoteIdent } from '../datasets/naming.ts';
import { rowsStore } from '../store/rows.ts';
import { LAKE_TYPES, type LakeColumn, type LakeType } from '../datasets/types.ts';

export interface Landed {
  count: number;
  /** Values that did not fit their column's type (records only). */
  typeErrors: number;
}

type QuerySource = Extract<WriteRequest['source'], { kind: 'query' }>;

/**
 * A records source's batches as COPY text. The source reads on connections of
 * its own (an uploaded file, the tenant's events) while the write's transaction
 * is held: on an external database only (the embedded one has read it before
 * the write: readBeforeWriting).
 */
async function* encoded(batches: AsyncIterable<Record<string, unknown>[]> | Iterable<Record<string, unknown>[]>, columns: LakeColumn[], counts: { typeErrors: number }) {
  const iterator = Symbol.asyncIterator in batches ? batches[Symbol.asyncIterator]() : batches[Symbol.iterator]();
  for (;;) {
    const next = await onSecondConnection(async () => iterator.next());
    if (next.done) return;
    const rows = next.value;
    if (rows.length === 0) continue;
    const batch = encodeRows(rows, columns);
    counts.typeErrors += batch.typeErrors;
    yield batch.text;
  }
}


function sameTypes(types: LakeType[] | undefined, columns: LakeColumn[]): boolean {
  return types !== undefined && types.length === columns.length && columns.every((column, i) => column.type === types[i]);
}

/**
 * Whether a query can be piped: it needs a second connection with a session
 * of its own (PGlite, the embedded default, has one session for all), and
 * COPY takes no bind parameters.
 */
export function pipeable(core: CoreServices, source: WriteRequest['source']): source is QuerySource {
  return source.kind === 'query' && core.config.databaseUrl !== undefined && (source.parameters ?? []).length === 0;
}

/**
 * A records source read to its end, when the database is the embedded
 * default: PGlite has one session, which the write's transaction holds from
 * its first statement, so a source that reads the platform's own tables as it
 * goes (an uploaded file, the tenant's events) would wait for it forever. The
 * rows are kept in memory instead (the embedded default is for small data).
 */
export async function readBeforeWriting(core: CoreServices, source: WriteRequest['source']): Promise<WriteRequest['source']> {
  if (source.kind !== 'records' || core.config.databaseUrl !== undefined) return source;
  const batches: Record<string, unknown>[][] = [];
  for await (const batch of source.batches) batches.push(batch);
  return { kind: 'records', batches };
}

/**
 * Lands a stream or records source into `relation` (quoted) with COPY;
 * `columns` are every column of the dataset, `sourceColumns` those the
 * source sends, in its order.
 */
export async function copyLanding(session: TenantSession, relation: string, columns: LakeColumn[], sourceColumns: LakeColumn[], source: WriteRequest['source']): Promise<Landed> {
  const counts = { typeErrors: 0 };
  if (source.kind === 'query') throw new Error('a query lands with queryLanding or pipeLanding');
  const format = source.kind === 'copy' ? (source.format ?? 'text') : 'text';
  // Binary fields are read as the column's type, whatever they are: a mismatch would store garbage, not fail.
  if (format === 'binary' && (source.kind !== 'copy' || !sameTypes(source.types, sourceColumns))) {
    throw new Error('a binary COPY source must name the lake types of its fields, and they must be its columns\' types');
  }
  // The COPY's own row count (its command tag): no second pass to count the rows.
  const copy = session.client.query(copyFrom(rowsStore.copyInto(relation, source.kind === 'records' ? columns : sourceColumns, format)));
  await pipeline(source.kind === 'records' ? Readable.from(encoded(source.batches, columns, counts)) : source.stream, copy);
  return { count: copy.rowCount, typeErrors: counts.typeErrors };
}

/** Lands a query's rows into the stage with the write's own INSERT … SELECT (as the tenant role). */
export async function queryLanding(session: TenantSession, stage: string, sourceColumns: LakeColumn[], source: QuerySource): Promise<Landed> {
  return { count: await rowsStore.insertFromQuery(session.trx, stage, sourceColumns, source.sql, source.parameters ?? []), typeErrors: 0 };
}

/**
 * Pipes a query into `relation` (quoted): the query runs in its own tenant
 * transaction (read-only, the tenant role, row-level security; `beforeLanding`
 * enters core.tenantSql there and tags it, so the budget and a cancel stop the
 * statement that reads),
 * cast to the columns' own types so that binary COPY carries them exactly.
 * A failure on either side fails both.
 */
export async function pipeLanding(core: CoreServices, tenantId: string, session: TenantSession, relation: string, sourceColumns: LakeColumn[], source: QuerySource, beforeLanding?: WriteRequest['beforeLanding']): Promise<Landed> {
  const casts = sourceColumns.map((column, i) => `q.${quoteIdent(`c${i}`)}::${LAKE_TYPES[column.type]}`);
  const names = sourceColumns.map((_, i) => quoteIdent(`c${i}`)).join(', ');
  const select = `SELECT ${casts.join(', ')} FROM (${source.sql}\n) AS q (${names})`;
  // A second session on purpose (external databases only: see pipeable), beside the write's transaction.
  return onSecondConnection(() => core.withTenantSession(tenantId, async (reader) => {
    await sql.raw('SET TRANSACTION READ ONLY').execute(reader.trx);
    if (beforeLanding) await beforeLanding(reader.trx);
    // Started only now: a write connection left waiting in COPY could not even roll back.
    const copy = session.client.query(copyFrom(rowsStore.copyInto(relation, sourceColumns, 'binary')));
    await pipeline(reader.client.query(copyTo(`COPY (${select}) TO STDOUT (FORMAT binary)`)), copy);
    return { count: copy.rowCount, typeErrors: 0 };
  }));
}
