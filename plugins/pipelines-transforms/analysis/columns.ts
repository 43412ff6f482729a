// Output column names read off the parse tree (what PostgreSQL would name
// them), used when the SQL cannot be described (it has errors): `*` stays `*`.
import type { Parsed } from './parse.ts';
import { names, type Node } from './tree.ts';

function nameOf(value: Node | undefined): string {
  if (!value) return '?column?';
  const [type, node] = Object.entries(value)[0] as [string, Node];
  switch (type) {
    case 'ColumnRef': {
      const fields = node.fields as Node[];
      const last = fields[fields.length - 1]!;
      return 'A_Star' in last ? '*' : names([last])[0]!;
    }
    case 'FuncCall': return names(node.funcname).pop() ?? '?column?';
    case 'TypeCast': return nameOf(node.arg as Node);
    case 'CoalesceExpr': return 'coalesce';
    default: return '?column?';
  }
}

export function selectOf(tree: Parsed): Node | undefined {
  let select = tree.stmts[0]?.stmt?.SelectStmt as Node | undefined;
  while (select && select.op !== 'SETOP_NONE' && select.larg) select = select.larg as Node;
  return select;
}

export function outputNames(tree: Parsed): string[] {
  const targets = (selectOf(tree)?.targetList ?? []) as { ResTarget?: Node }[];
  return targets.map(({ ResTarget: target }) => (target?.name as string | undefined) ?? nameOf(target?.val as Node | undefined));
}
