// The real PostgreSQL parser (libpg-query, WASM): a parse tree, or the
// syntax error with its position.
import type { ScanToken } from 'libpg-query';
import { positionAt } from './position.ts';
import type { SqlError } from './types.ts';

/** libpg-query (its WASM parser) loads with the first SQL analysed. */
let loading: Promise<typeof import('libpg-query')> | undefined;
const libpgQuery = () => (loading ??= import('libpg-query'));

export interface Parsed {
  stmts: { stmt?: Record<string, unknown> }[];
}

export type ParseOutcome = { ok: true; tree: Parsed } | { ok: false; error: SqlError };

const MAX_SQL_LENGTH = 200_000;

export async function parseSql(sql: string): Promise<ParseOutcome> {
  if (sql.length > MAX_SQL_LENGTH) return { ok: false, error: { code: 'SQL_TOO_LONG', message: `SQL is limited to ${MAX_SQL_LENGTH} characters` } };
  if (sql.includes('\u0000')) return { ok: false, error: { code: 'SQL_SYNTAX', message: 'SQL may not contain NUL characters' } };
  try {
    const { parse } = await libpgQuery();
    return { ok: true, tree: (await parse(sql)) as unknown as Parsed };
  } catch (err) {
    const details = (err as { sqlDetails?: { message?: string; cursorPosition?: number } }).sqlDetails;
    const message = details?.message ?? (err as Error).message ?? 'syntax error';
    return { ok: false, error: { code: 'SQL_SYNTAX', message, ...positionAt(sql, details?.cursorPosition) } };
  }
}

/** The tokens of the SQL (byte offsets), for rewriting relation references in place. */
export async function tokensOf(sql: string): Promise<ScanToken[]> {
  const { scan } = await libpgQuery();
  return (await scan(sql)).tokens;
}
