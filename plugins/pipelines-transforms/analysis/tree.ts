// Walking libpg-query parse trees: every node is `{TypeName: {fields}}`, so a
// node's type is its wrapper key (PascalCase; field names are lower case).
export type Node = Record<string, unknown>;

/** Visits every node of a parse tree, depth first, with its type name. */
export function walk(tree: unknown, visit: (type: string, node: Node) => void): void {
  const stack: unknown[] = [tree];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) {
      if (/^[A-Z]/.test(key) && child && typeof child === 'object' && !Array.isArray(child)) visit(key, child as Node);
      stack.push(child);
    }
  }
}

/** The `sval`s of a list of String nodes (qualified names). */
export function names(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((item) => ((item as { String?: { sval?: string } }).String?.sval ?? ''));
}
