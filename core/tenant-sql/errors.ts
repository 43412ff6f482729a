// The errors of tenant-written SQL: a statement past its budget (SQLSTATE
// 57014, query_canceled) and a tenant over its concurrency cap. Both carry a
// stable code; neither leaks the statement or PostgreSQL's message.
import type Boom from '@hapi/boom';
import { domainError, tooManyRequests } from '../errors.ts';

export const SQL_TIMEOUT = 'SQL_TIMEOUT';
export const SQL_CONCURRENCY_LIMIT = 'SQL_CONCURRENCY_LIMIT';

/** The responses of a route whose request runs tenant-written SQL (its OpenAPI notes). */
export const TENANT_SQL_NOTES = 'Tenant-written SQL runs within TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS (PostgreSQL\'s planning included): past it 422 SQL_TIMEOUT and nothing is changed. '
  + 'Past TENANT_SQL_MAX_CONCURRENT_PER_TENANT statements of the tenant at once (on the embedded database: another request\'s statement running): 429 SQL_CONCURRENCY_LIMIT with Retry-After.';

/** PostgreSQL cancelled the statement: its statement_timeout (or a cancel request) fired. */
export const isQueryCanceled = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === '57014';

const codeOf = (err: unknown): unknown => (err as { output?: { payload?: { code?: unknown } } } | null)?.output?.payload?.code;

/** The error `tenantSql` throws for a statement past its budget (422 SQL_TIMEOUT). */
export const isSqlTimeout = (err: unknown): boolean => codeOf(err) === SQL_TIMEOUT;

/** The error `tenantSql` throws for a tenant over its concurrency cap (429 SQL_CONCURRENCY_LIMIT). */
export const isSqlConcurrencyLimit = (err: unknown): boolean => codeOf(err) === SQL_CONCURRENCY_LIMIT;

export function sqlTimeout(budgetMs: number, setting: string): Boom.Boom {
  const error = domainError(422, `The SQL ran past its statement budget of ${budgetMs} ms (${setting}): nothing was changed`, SQL_TIMEOUT);
  (error.output.payload as Record<string, unknown>).budget_ms = budgetMs;
  return error;
}

/** `tenant`: the tenant is at TENANT_SQL_MAX_CONCURRENT_PER_TENANT; `embedded`: the embedded database runs another request's statement. */
export function concurrencyLimit(reason: { tenant: number } | 'embedded', retryAfterSeconds: number): Boom.Boom {
  const message = reason === 'embedded'
    ? 'The embedded database is running another request\'s SQL statement: try again shortly'
    : `This tenant already runs ${reason.tenant} SQL statements at once (TENANT_SQL_MAX_CONCURRENT_PER_TENANT): try again shortly`;
  return tooManyRequests(message, SQL_CONCURRENCY_LIMIT, retryAfterSeconds);
}
