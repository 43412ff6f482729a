// Which operations an import keeps. An operation is kept when no include
// criterion is set or it matches one of them, and it matches no exclude
// criterion. Criteria: tags, path globs (`*` within one segment, `**` across
// segments, matched against the path template) and operations (an
// operationId or "METHOD /path").
import type { OperationFilter } from '../model.ts';

export interface FilterableOperation {
  key: string;
  path: string;
  operationId?: string;
  tags: string[];
}

export function globToRegExp(glob: string): RegExp {
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
  return new RegExp(`^${source}$`);
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
