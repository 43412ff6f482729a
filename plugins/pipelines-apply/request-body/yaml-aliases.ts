// YAML aliases, resolved once per document and counted against one budget per
// request. An alias stands for its anchor's whole value, so a small text can
// name a huge tree ("billion laughs"), and a cap per document multiplies with
// the number of documents. Before any value is built, every document's nodes
// are sized once (memoized: an anchor's size is computed once, however often
// it is named); each alias spends its anchor's size from the request's
// budget, all documents together. Past the budget the request is refused.
import { isAlias, isCollection, isNode, isPair, isScalar, type Alias, type Document, type Node } from 'yaml';

/** Values the aliases of one request may stand for, all documents together. */
export const MAX_ALIAS_VALUES = 200_000;

export type Path = (string | number)[];

export type AliasProblem = 'cycle' | 'deep' | 'budget';

export interface AliasBudget {
  /** values spent so far by the aliases of the request */
  spent: number;
  readonly limit: number;
}

export const aliasBudget = (limit = MAX_ALIAS_VALUES): AliasBudget => ({ spent: 0, limit });

/**
 * Each alias of the document with the node it names: the last node anchored
 * with its name before it in document order (as YAML resolves it: a
 * collection's anchor precedes its items, a key its value). One pass.
 */
export function aliasTargets(doc: Document): Map<Alias, Node | undefined> {
  const anchors = new Map<string, Node>();
  const targets = new Map<Alias, Node | undefined>();
  const pending: unknown[] = [doc.contents];
  while (pending.length) {
    const item = pending.pop();
    if (isPair(item)) {
      pending.push(item.value, item.key);
      continue;
    }
    if (isAlias(item)) {
      targets.set(item, anchors.get(item.source));
      continue;
    }
    if (!isNode(item)) continue;
    if (item.anchor) anchors.set(item.anchor, item);
    if (isCollection(item)) for (let i = item.items.length - 1; i >= 0; i--) pending.push(item.items[i]);
  }
  return targets;
}

const keyOf = (key: unknown, index: number): string | number => (isScalar(key) && typeof key.value === 'string' ? key.value : index);

/**
 * Sizes the document's values with aliases expanded, without building them,
 * and spends what its aliases stand for from the budget. Calls `fail` (which
 * throws) on a cycle, on nesting past maxDepth, or past the budget.
 */
export function spendAliases(
  doc: Document, targets: Map<Alias, Node | undefined>, budget: AliasBudget, maxDepth: number,
  fail: (problem: AliasProblem, path: Path) => never,
): void {
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();

  function size(node: unknown, path: Path): number {
    if (path.length > maxDepth) fail('deep', path);
    if (isAlias(node)) {
      const target = targets.get(node);
      // An alias naming no anchor is refused, with its path, by the conversion.
      if (!target) return 1;
      if (open.has(target)) fail('cycle', path);
      const values = size(target, path);
      budget.spent += values;
      if (budget.spent > budget.limit) fail('budget', path);
      return values;
    }
    if (!isCollection(node)) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    open.add(node);
    let total = 1;
    node.items.forEach((item, index) => {
      total += isPair(item) ? size(item.value, [...path, keyOf(item.key, index)]) : size(item, [...path, index]);
    });
    open.delete(node);
    sizes.set(node, total);
    return total;
  }

  size(doc.contents, []);
}
