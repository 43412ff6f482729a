// The relations tenant SQL reads. Every relation is a dataset id written as a
// three-part name `namespace.layer.table` (the lakehouse's), except a name
// defined by a WITH clause (one part). Anything else — a bare table, a
// schema-qualified one, a system catalog — is refused.
import type { Parsed } from './parse.ts';
import { positionAt } from './position.ts';
import { walk } from './tree.ts';
import type { RelationRef, SqlError } from './types.ts';

export function relationsOf(sql: string, tree: Parsed): { refs: RelationRef[]; errors: SqlError[] } {
  const cteNames = new Set<string>();
  walk(tree, (type, node) => {
    if (type === 'CommonTableExpr' && typeof node.ctename === 'string') cteNames.add(node.ctename);
  });
  const refs: RelationRef[] = [];
  const errors: SqlError[] = [];
  walk(tree, (type, node) => {
    if (type !== 'RangeVar') return;
    const catalog = node.catalogname as string | undefined;
    const schema = node.schemaname as string | undefined;
    const relname = node.relname as string;
    const location = node.location as number;
    if (!catalog && !schema && cteNames.has(relname)) return;
    if (!catalog || !schema) {
      const written = [schema, relname].filter(Boolean).join('.');
      errors.push({
        code: 'SQL_RELATION_NOT_DATASET',
        message: `Relation ${written} is not a dataset: name datasets by their id <namespace>.<layer>.<table>`,
        ...positionAt(sql, location),
      });
      return;
    }
    const alias = (node.alias as { aliasname?: string } | undefined)?.aliasname ?? null;
    refs.push({ datasetId: `${catalog}.${schema}.${relname}`, location, alias, table: relname });
  });
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
