// review-sql's lint findings on a parse tree that passed the parser:
// SELECT *, cartesian joins (several FROM items, or a CROSS/unqualified JOIN,
// with no condition linking them), non-deterministic functions.
import { NON_DETERMINISTIC } from './allowlist.ts';
import type { Parsed } from './parse.ts';
import { positionAt } from './position.ts';
import { names, walk, type Node } from './tree.ts';
import type { SqlFinding } from '../api.ts';

export function lintFindings(sql: string, tree: Parsed): SqlFinding[] {
  const findings: SqlFinding[] = [];
  const at = (location: unknown) => positionAt(sql, typeof location === 'number' ? location : undefined);
  walk(tree, (type, node) => {
    if (type === 'ResTarget') {
      const fields = ((node.val as Node | undefined)?.ColumnRef as Node | undefined)?.fields as Node[] | undefined;
      if (fields?.some((field) => 'A_Star' in field)) {
        findings.push({ rule: 'select-star', severity: 'warning', message: 'SELECT * makes the output schema follow the inputs: list the columns', ...at(node.location) });
      }
    } else if (type === 'SelectStmt') {
      const from = (node.fromClause ?? []) as Node[];
      if (from.length > 1 && !node.whereClause) {
        findings.push({ rule: 'cartesian-join', severity: 'warning', message: `${from.length} FROM items without a WHERE clause: a cartesian product` });
      }
    } else if (type === 'JoinExpr') {
      if (!node.quals && !node.usingClause && !node.isNatural) {
        findings.push({ rule: 'cartesian-join', severity: 'warning', message: 'A join without ON or USING is a cartesian product', ...at(((node.rarg as Node | undefined)?.RangeVar as Node | undefined)?.location) });
      }
    } else if (type === 'FuncCall') {
      const name = names(node.funcname).pop()?.toLowerCase() ?? '';
      if (NON_DETERMINISTIC.has(name)) {
        findings.push({ rule: 'non-deterministic', severity: 'warning', message: `${name}() gives a different result on each run: materializations are not reproducible`, ...at(node.location) });
      }
    } else if (type === 'SQLValueFunction') {
      findings.push({ rule: 'non-deterministic', severity: 'warning', message: 'current date/time or user values differ between runs', ...at(node.location) });
    }
  });
  return findings;
}
