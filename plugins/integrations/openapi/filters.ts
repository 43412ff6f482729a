// Which operations an import keeps. An operation is kept when no include
// criterion is set or it matches one of them, and it matches no exclude
// criterion. Criteria: tags, path globs (`*` within one segment, `**` across
// segments, matched against the path template) and operations (an
// operationId or "METHOD /path").
//
// Globs are tenant-written and a path template can be long: several `**`
// (`.*` each) on V8's backtracking engine cost time polynomial in the path,
// so globs run on RE2 (core/linear-regexp.ts), linear in the path.
import { badRequest, compileLinear, type LinearRegExp } from 'agent-platform/sdk';
import type { OperationFilter } from './model.ts';

export interface FilterableOperation {
  key: string;
  path: string;
  operationId?: string;
  tags: string[];
}

/** The longest glob accepted. */
export const MAX_GLOB_LENGTH = 500;

/** A path glob as a linear-time matcher; a 400 for a glob over MAX_GLOB_LENGTH. */
export function globToRegExp(glob: string): LinearRegExp {
  if (glob.length > MAX_GLOB_LENGTH) {
    throw badRequest(`a path glob may be at most ${MAX_GLOB_LENGTH} characters (one has ${glob.length})`, 'INVALID_FILTER');
  }
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (char === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  // Every character but the glob's own is escaped, so RE2 compiles it (at most 5 × 500 characters of pattern, under its length limit).
  return compileLinear(`^${source}$`);
}

function compile(filter: OperationFilter | undefined) {
  if (!filter) return undefined;
  const tags = new Set(filter.tags ?? []);
  const paths = (filter.paths ?? []).map(globToRegExp);
  const operations = new Set((filter.operations ?? []).map((o) => o.trim()));
  if (tags.size === 0 && paths.length === 0 && operations.size === 0) return undefined;
  return (op: FilterableOperation) =>
    op.tags.some((tag) => tags.has(tag))
    || paths.some((pattern) => pattern.test(op.path))
    || operations.has(op.key)
    || (op.operationId !== undefined && operations.has(op.operationId));
}

/** Splits operations into kept and skipped (with why). */
export function applyFilters<T extends FilterableOperation>(operations: T[], include?: OperationFilter, exclude?: OperationFilter) {
  const included = compile(include);
  const excluded = compile(exclude);
  const kept: T[] = [];
  const skipped: { operation: string; reason: string }[] = [];
  for (const op of operations) {
    if (included && !included(op)) skipped.push({ operation: op.key, reason: 'not included' });
    else if (excluded?.(op)) skipped.push({ operation: op.key, reason: 'excluded' });
    else kept.push(op);
  }
  return { kept, skipped };
}
