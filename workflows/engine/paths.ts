// Dot paths into plain JSON values ("data.order.total", "items.0.id").
// Pure: web-standard JavaScript only, so the engine runs under Deno too.

export const MISSING: unique symbol = Symbol('missing');

/** The value at a dot path, or MISSING when any segment is absent. */
export function valueAt(root: unknown, path: string): unknown {
  let current: unknown = root;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return MISSING;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return MISSING;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}
