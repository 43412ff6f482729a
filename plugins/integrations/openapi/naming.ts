// Function names: prefix + a snake_case form of the operationId (or of the
// method and path when there is none), at most 64 characters (what LLM tool
// definitions accept), stable across re-syncs. A name that would be too long
// or that two operations share gets a short hash of the operation, and an
// operation keeps the name it already had when it still fits.
import { createHash } from 'node:crypto';

export const MAX_FUNCTION_NAME = 64;
export const FUNCTION_NAME = /^[a-z][a-z0-9_]{0,63}$/;

export function snakeCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '')
    .toLowerCase();
}

/** `get /users/{id}/posts` becomes `get_users_by_id_posts`. */
function fromMethodAndPath(method: string, path: string): string {
  return snakeCase(`${method} ${path.replace(/\{([^}]+)\}/g, ' by $1 ')}`);
}

/** The prefix as it is put in front of names: snake_case, joined with `_`. */
export function normalizePrefix(prefix: string): string {
  const snake = snakeCase(prefix);
  return snake === '' ? '' : `${snake}_`;
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 6);

function fit(name: string, operationKey: string, forceHash: boolean): string {
  let result = /^[a-z]/.test(name) ? name : `op_${name}`;
  if (!forceHash && result.length <= MAX_FUNCTION_NAME) return result;
  const suffix = `_${shortHash(operationKey)}`;
  result = result.slice(0, MAX_FUNCTION_NAME - suffix.length).replace(/_+$/, '');
  return `${result}${suffix}`;
}

export interface NamingInput {
  key: string;
  method: string;
  path: string;
  operationId?: string;
}

/**
 * Names every operation. `overrides` (by operationId or "METHOD /path") are
 * used as given; `previous` (operation key to the name it has now) wins a
 * collision, so re-syncs never rename what exists.
 */
export function nameOperations(
  operations: NamingInput[],
  prefix: string,
  overrides: Record<string, string>,
  previous: Map<string, string>,
): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Map<string, string>();
  const candidates = operations.map((op) => {
    const override = (op.operationId !== undefined ? overrides[op.operationId] : undefined) ?? overrides[op.key];
    const base = op.operationId ? snakeCase(op.operationId) : fromMethodAndPath(op.method, op.path);
    return { op, override, candidate: override ?? fit(`${prefix}${base || 'operation'}`, op.key, false) };
  });
  // Overrides first, then operations that already own their candidate, then by key.
  const rank = (c: (typeof candidates)[number]) => (c.override ? 0 : previous.get(c.op.key) === c.candidate ? 1 : 2);
  candidates.sort((a, b) => rank(a) - rank(b) || a.op.key.localeCompare(b.op.key));
  for (const { op, override, candidate } of candidates) {
    let name = candidate;
    if (!override && taken.has(name)) {
      const kept = previous.get(op.key);
      name = kept && !taken.has(kept) ? kept : fit(candidate, op.key, true);
    }
    taken.set(name, op.key);
    names.set(op.key, name);
  }
  return names;
}
