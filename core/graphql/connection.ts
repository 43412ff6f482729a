// Relay-style connections over keyset pages: `first`/`after`, edges, pageInfo.
// Cursors are opaque base64url strings of the row's sort key.
import { badInput } from './errors.ts';

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
}

export const MAX_PAGE = 100;

export function encodeCursor(key: string | number): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<T extends string | number>(cursor: string | null | undefined): T | undefined {
  if (!cursor) return undefined;
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as T;
  } catch {
    throw badInput('Malformed cursor');
  }
}

export function pageSize(args: ConnectionArgs): number {
  const first = args.first ?? 20;
  if (!Number.isInteger(first) || first < 0 || first > MAX_PAGE) {
    throw badInput(`first must be between 0 and ${MAX_PAGE}`);
  }
  return first;
}

/** rows must hold up to size + 1 items, fetched after the cursor, in order. */
export function toConnection<T>(rows: T[], size: number, keyOf: (row: T) => string | number, hadCursor: boolean) {
  const page = rows.slice(0, size);
  const edges = page.map((node) => ({ node, cursor: encodeCursor(keyOf(node)) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: rows.length > size,
      hasPreviousPage: hadCursor,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
