// Materialization: compiled tenant SQL lands in a dataset through the
// lakehouse write (source kind `query`: the SELECT runs in the write's tenant
// transaction, as the tenant role under forced RLS), as one snapshot —
// `table` overwrites, `incremental` upserts by the unique key
// (append_dedup). A job's work: core.tenantSql with the job's budget
// (PIPELINES_TRANSFORM_STATEMENT_TIMEOUT_MS, or the caller's smaller one) for
// the describe and for the write, whose session enters it (the budget and the
// tenant's slot) and gets a tag before the rows land, so a cancel (an
// AbortSignal, or a run's cancel route through the recorded backend pid)
// stops exactly that statement. Past the budget the write rolls back
// (nothing lands): 400 TRANSFORM_STATEMENT_TIMEOUT. A row cap: more
// rows than PIPELINES_TRANSFORM_MAX_ROWS fails the write (nothing lands);
// a caller's rowLimit (sandbox runs) truncates instead.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { badRequest, domainError, isSqlTimeout, onSecondConnection, type CoreServices, type TenantSqlOptions } from 'agent-platform/sdk';
import type { LakehouseApi, LakeType } from '../../lakehouse/api.ts';
import type { MaterializeRequest, MaterializeResult } from '../api.ts';
import type { TransformsOptions } from '../options.ts';
import type { Analyzer } from '../services/analysis.ts';
import { tenantSqlStore } from '../store/tenant-sql.ts';

const PG_TYPES: Record<string, string> = {
  text: 'text', bigint: 'bigint', double: 'double precision', numeric: 'numeric', boolean: 'boolean',
  timestamptz: 'timestamptz', date: 'date', uuid: 'uuid', jsonb: 'jsonb',
};
const TABLE = /^[A-Za-z0-9_]{1,63}$/;
const SAMPLE_ROWS = 10;
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Called once the statement's backend is known (a transform run records it for its cancel route). */
export type OnBackend = (pid: number, tag: string) => Promise<void>;

export const cancelledError = () => domainError(409, 'The materialization was cancelled', 'TRANSFORM_CANCELLED');

function refused(errors: { code: string; message: string }[]) {
  const error = badRequest(`The SQL is refused: ${errors.map((e) => e.message).join('; ')}`.slice(0, 2000), errors[0]!.code);
  (error.output.payload as Record<string, unknown>).errors = errors;
  return error;
}

function checkRequest(request: MaterializeRequest, columns: { name: string }[]): void {
  if (request.namespace !== 'derived' && request.namespace !== 'sandbox') throw badRequest('namespace is derived or sandbox', 'MATERIALIZE_NAMESPACE_INVALID');
  if (!TABLE.test(request.table)) throw badRequest('table may hold only [A-Za-z0-9_] (1 to 63 characters)', 'DATASET_ID_INVALID');
  const seen = new Set<string>();
  for (const { name } of columns) {
    if (seen.has(name)) throw badRequest(`Output column "${name}" appears twice: alias it`, 'SQL_DUPLICATE_COLUMN');
    seen.add(name);
  }
  if (request.materialization === 'incremental' && !request.uniqueKey?.length) throw badRequest('incremental materialization needs unique_key', 'UNIQUE_KEY_REQUIRED');
  for (const key of request.uniqueKey ?? []) {
    if (!seen.has(key)) throw badRequest(`unique_key "${key}" is not an output column`, 'UNIQUE_KEY_UNKNOWN');
  }
}

export function createMaterializer(core: CoreServices, options: TransformsOptions, analyzer: Analyzer, lake: () => LakehouseApi) {
  return async function materialize(tenantId: string, request: MaterializeRequest, onBackend?: OnBackend, given?: Record<string, unknown>): Promise<MaterializeResult & { compiledSql: string }> {
    const started = performance.now();
    const timeoutMs = Math.min(request.statementTimeoutMs ?? options.statementTimeoutMs, options.statementTimeoutMs);
    const budget: TenantSqlOptions = { mode: 'job', timeoutMs, setting: 'PIPELINES_TRANSFORM_STATEMENT_TIMEOUT_MS' };
    const timedOut = () => badRequest(`The SQL ran past its statement timeout (${timeoutMs} ms): nothing was written`, 'TRANSFORM_STATEMENT_TIMEOUT');
    const { analysis, compiled } = await analyzer.compile(tenantId, request.sql, request.parameters, given, { relationMap: request.relationMap, budget })
      .catch((err: unknown) => {
        throw isSqlTimeout(err) ? timedOut() : err;
      });
    if (!compiled) throw refused(analysis.errors);
    checkRequest(request, compiled.columns);
    const datasetId = lake().datasetIdFor(request.namespace, tenantId, request.table);
    const columns = compiled.columns.map((column) => ({ name: column.name, type: column.type as LakeType }));
    const info = await lake().ensureDataset(tenantId, { datasetId, columns, primaryKey: request.uniqueKey ?? [], producer: request.producer });

    const capped = request.rowLimit === undefined;
    const limit = capped ? options.maxRows + 1 : Math.min(request.rowLimit!, options.maxRows);
    const select = `SELECT ${columns.map((c) => `q.${quote(c.name)}::${PG_TYPES[c.type]}`).join(', ')} FROM (${compiled.sql}\n) AS q LIMIT ${limit}`;
    const tag = `transform:${randomUUID()}`;
    let pid: number | null = null;
    let cancelled = request.signal?.aborted ?? false;
    const onAbort = () => {
      cancelled = true;
      if (pid !== null) void tenantSqlStore.cancel(core, pid, tag).catch((err) => core.logger.warn({ err }, 'transform cancel failed'));
    };
    request.signal?.addEventListener('abort', onAbort);
    let sampleRows: Record<string, unknown>[] = [];
    try {
      if (cancelled) throw cancelledError();
      const result = await core.tenantSql.admit(tenantId, budget, (enter) => lake().write(tenantId, datasetId, {
        mode: request.materialization === 'incremental' ? 'append_dedup' : 'overwrite',
        source: { kind: 'query', sql: select, parameters: compiled.values, properties: columns.map((c) => c.name) },
        primaryKey: request.uniqueKey,
        summary: { producer: request.producer, inputs: compiled.inputs },
        beforeLanding: async (trx) => {
          const backend = await tenantSqlStore.prepareSession(trx, tag, enter);
          pid = backend;
          // A caller records the backend in a transaction of its own, for a cancel from another process to
          // find while this one runs. The embedded database has one session, which this write holds: there the
          // write is not recorded (a cancel is seen through `signal` and after the write instead).
          if (onBackend && core.config.databaseUrl !== undefined) await onSecondConnection(() => onBackend(backend, tag));
          if (cancelled) throw cancelledError();
        },
      }, async (trx, written) => {
        if (capped && written.rowsStaged > options.maxRows) {
          throw badRequest(`The SQL produced more than ${options.maxRows} rows (PIPELINES_TRANSFORM_MAX_ROWS): nothing was written`, 'TRANSFORM_ROW_LIMIT');
        }
        sampleRows = await tenantSqlStore.sample(trx, lake().asOf({ ...info, latestSnapshotId: written.snapshotId }), SAMPLE_ROWS);
      }));
      return {
        datasetId, snapshotId: result.snapshotId, rows: result.rowsStaged, columns: compiled.columns, sampleRows,
        durationMs: Math.round(performance.now() - started), compiledSql: select,
      };
    } catch (err) {
      // A cancel stops the statement with the same SQLSTATE as its timeout (57014).
      if (isSqlTimeout(err)) throw cancelled ? cancelledError() : timedOut();
      const pgCode = (err as { code?: unknown }).code;
      if (typeof pgCode === 'string' && pgCode.length === 5) throw badRequest(`The SQL failed: ${(err as Error).message}`.slice(0, 2000), 'TRANSFORM_SQL_FAILED');
      throw err;
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
    }
  };
}

export type Materializer = ReturnType<typeof createMaterializer>;
