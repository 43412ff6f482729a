// Relay connections over keyset pages, in both directions: `first`/`after`
// pages forward, `last`/`before` backward (`last` alone: the end of the
// list). Cursors are opaque base64url strings of the row's sort key (a
// string, a number, or an array of them for a composite key).
//
// A list resolver states how to read one page and how to count, and
// `keysetConnection` does the rest:
//
//   return keysetConnection(args, {
//     keyOf: (row) => [row.created_at.toISOString(), row.id],
//     validKey: isCreatedAtIdKey,
//     fetch: (page) => service.page(tenantId, filter, page),   // see KeysetPage
//     count: () => service.count(tenantId, filter),
//   });
//
// `totalCount` is a function on the connection, so graphql-js calls it (and
// the count query runs) only when the operation asks for it.
import { badInput } from './errors.ts';

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 20;

/** A sort key: what a cursor encodes. */
export type CursorKey = string | number | (string | number | null)[];

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<T extends CursorKey>(cursor: string | null | undefined): T | undefined {
  if (!cursor) return undefined;
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as T;
  } catch {
    throw badInput('Malformed cursor');
  }
}

function checkSize(name: 'first' | 'last', value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > MAX_PAGE) {
    throw badInput(`${name} must be between 0 and ${MAX_PAGE}`);
  }
  return value;
}

/** The page size of forward-only arguments (`first`, default 20). */
export function pageSize(args: ConnectionArgs): number {
  return checkSize('first', args.first ?? DEFAULT_PAGE);
}

/**
 * One page to read. Forward: the rows after `cursor` (from the start when
 * undefined), in list order. Backward: the rows before `cursor` (from the end
 * when undefined), nearest first, that is in reverse list order. At most
 * `limit` rows (one more than the page, to know whether there are more).
 */
export interface KeysetPage<K extends CursorKey> {
  direction: 'forward' | 'backward';
  cursor: K | undefined;
  limit: number;
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Connection<T> {
  edges: { node: T; cursor: string }[];
  pageInfo: PageInfo;
  totalCount: () => Promise<number> | number;
}

/**
 * The page the arguments ask for: `first` with `after`, or `last` with
 * `before` (`last` alone reads the end of the list). Mixing the directions is
 * a 400 BAD_USER_INPUT, as is a cursor that `validKey` refuses.
 */
export function keysetPage<K extends CursorKey>(args: ConnectionArgs, validKey?: (key: unknown) => boolean): KeysetPage<K> & { size: number } {
  const backward = args.last != null || args.before != null;
  if (backward && (args.first != null || args.after != null)) {
    throw badInput('Page forward with first/after or backward with last/before, not both');
  }
  const size = backward ? checkSize('last', args.last ?? DEFAULT_PAGE) : pageSize(args);
  const cursor = decodeCursor<K>(backward ? args.before : args.after);
  if (cursor !== undefined && validKey && !validKey(cursor)) throw badInput('Malformed cursor');
  return { direction: backward ? 'backward' : 'forward', cursor, limit: size + 1, size };
}

/**
 * A connection from rows read for `page` (as KeysetPage describes: up to
 * size + 1, reverse order when backward).
 */
export function pageConnection<T>(
  rows: T[], page: KeysetPage<CursorKey> & { size: number }, keyOf: (row: T) => CursorKey, count: () => Promise<number> | number,
): Connection<T> {
  const more = rows.length > page.size;
  const kept = rows.slice(0, page.size);
  if (page.direction === 'backward') kept.reverse();
  const edges = kept.map((node) => ({ node, cursor: encodeCursor(keyOf(node)) }));
  const fromCursor = page.cursor !== undefined;
  return {
    edges,
    pageInfo: {
      hasNextPage: page.direction === 'forward' ? more : fromCursor,
      hasPreviousPage: page.direction === 'backward' ? more : fromCursor,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: count,
  };
}

export interface KeysetSource<T, K extends CursorKey> {
  keyOf(row: T): K;
  /** Refuses a decoded cursor of the wrong shape (a 400 'Malformed cursor'). */
  validKey?(key: unknown): boolean;
  fetch(page: KeysetPage<K>): Promise<T[]>;
  /** Every row of the list (with its filters), for `totalCount`. */
  count(): Promise<number> | number;
}

/** A Relay connection in either direction over a keyset-paged list. */
export async function keysetConnection<T, K extends CursorKey>(args: ConnectionArgs, source: KeysetSource<T, K>): Promise<Connection<T>> {
  const page = keysetPage<K>(args, source.validKey);
  const rows = page.size === 0 ? [] : await source.fetch({ direction: page.direction, cursor: page.cursor, limit: page.limit });
  return pageConnection(rows, page, source.keyOf, () => source.count());
}

/**
 * A connection over a list already whole in memory (small lists: a dataset's
 * snapshots, a registry's schemas): paged by position, in both directions.
 */
export function arrayConnection<T>(all: T[], args: ConnectionArgs, keyOf: (row: T) => CursorKey): Connection<T> {
  const page = keysetPage<CursorKey>(args);
  const keys = all.map((row) => JSON.stringify(keyOf(row)));
  let at: number | undefined;
  if (page.cursor !== undefined) {
    at = keys.indexOf(JSON.stringify(page.cursor));
    if (at < 0) throw badInput('Malformed cursor');
  }
  const rows = page.direction === 'forward'
    ? all.slice(at === undefined ? 0 : at + 1, (at === undefined ? 0 : at + 1) + page.limit)
    : all.slice(Math.max(0, (at ?? all.length) - page.limit), at ?? all.length).reverse();
  return pageConnection(rows, page, keyOf, () => all.length);
}

/**
 * A forward-only connection (a list that cannot page backward): rows must
 * hold up to size + 1 items, fetched after the cursor, in order. Without
 * `count`, asking for totalCount is an error.
 */
export function toConnection<T>(rows: T[], size: number, keyOf: (row: T) => CursorKey, hadCursor: boolean, count?: () => Promise<number> | number) {
  const uncounted = () => {
    throw new Error('totalCount is not available on this list');
  };
  return pageConnection(rows, { direction: 'forward', cursor: hadCursor ? '' : undefined, limit: size + 1, size }, keyOf, count ?? uncounted);
}
