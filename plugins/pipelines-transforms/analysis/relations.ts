// The relations tenant SQL reads. Every relation is a dataset id written as a
// three-part name `namespace.layer.table` (the lakehouse's), except a name
// of a WITH query in scope (one part). Anything else — a bare table, a
// schema-qualified one, a system catalog — is refused.
import type { Parsed } from './parse.ts';
import { positionAt } from './position.ts';
import { walk, type Node } from './tree.ts';
import type { RelationRef, SqlError } from './types.ts';

type Scope = ReadonlySet<string>;

/**
 * Walks the tree with the WITH names in scope, as PostgreSQL resolves them: a
 * statement's CTE names are visible in its body and its subqueries; inside
 * the WITH list, a CTE sees the ones before it (all of them with RECURSIVE).
 * A one-part name outside any such scope would resolve to a real table (a
 * catalog), so it is refused, even when a CTE of that name exists elsewhere.
 */
export function relationsOf(sql: string, tree: Parsed): { refs: RelationRef[]; errors: SqlError[] } {
  const refs: RelationRef[] = [];
  const errors: SqlError[] = [];

  function relation(node: Node, scope: Scope): void {
    const catalog = node.catalogname as string | undefined;
    const schema = node.schemaname as string | undefined;
    const relname = node.relname as string;
    const location = node.location as number;
    if (!catalog && !schema && scope.has(relname)) return;
    if (!catalog || !schema) {
      const written = [schema, relname].filter(Boolean).join('.');
      errors.push({
        code: 'SQL_RELATION_NOT_DATASET',
        message: `Relation ${written} is not a dataset (nor a WITH query in scope): name datasets by their id <namespace>.<layer>.<table>`,
        ...positionAt(sql, location),
      });
      return;
    }
    const alias = (node.alias as { aliasname?: string } | undefined)?.aliasname ?? null;
    refs.push({ datasetId: `${catalog}.${schema}.${relname}`, location, alias, table: relname });
  }

  function select(node: Node, scope: Scope): void {
    let inner = scope;
    const withClause = node.withClause as { ctes?: { CommonTableExpr?: Node }[]; recursive?: boolean } | undefined;
    if (withClause?.ctes) {
      const ctes = withClause.ctes.map((item) => item.CommonTableExpr ?? {});
      const cteNames = ctes.map((cte) => cte.ctename as string);
      ctes.forEach((cte, index) => {
        visit(cte.ctequery, new Set([...scope, ...(withClause.recursive ? cteNames : cteNames.slice(0, index))]));
      });
      inner = new Set([...scope, ...cteNames]);
    }
    for (const [key, child] of Object.entries(node)) if (key !== 'withClause') visit(child, inner);
  }

  function visit(value: unknown, scope: Scope): void {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, scope);
      return;
    }
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key === 'RangeVar') relation(child as Node, scope);
      else if (key === 'SelectStmt') select(child as Node, scope);
      else visit(child, scope);
    }
  }

  visit(tree, new Set());
  return { refs: refs.sort((a, b) => a.location - b.location), errors };
}

/** The highest $n the SQL uses, and where each is (byte offsets). */
export function parameterRefs(tree: Parsed): { number: number; location: number }[] {
  const refs: { number: number; location: number }[] = [];
  walk(tree, (type, node) => {
    if (type === 'ParamRef') refs.push({ number: node.number as number, location: node.location as number });
  });
  return refs.sort((a, b) => a.location - b.location);
}
