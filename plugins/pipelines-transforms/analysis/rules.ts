// The statement rules of tenant SQL, on the parse tree: exactly one
// statement, a SELECT (or WITH … SELECT) only — no data-modifying CTE, no
// SELECT INTO, no locking clause — functions only from the allowlist, no
// casts to the catalog's reg* types (they look names up in the catalog).
import { ALLOWED_FUNCTIONS } from './allowlist.ts';
import type { Parsed } from './parse.ts';
import { positionAt } from './position.ts';
import { names, walk } from './tree.ts';
import type { SqlError } from './types.ts';

const DATA_MODIFYING = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

export function ruleErrors(sql: string, tree: Parsed): SqlError[] {
  const errors: SqlError[] = [];
  const at = (location: unknown) => positionAt(sql, typeof location === 'number' ? location : undefined);
  if (tree.stmts.length !== 1) {
    return [{ code: 'SQL_SINGLE_STATEMENT', message: `Exactly one statement is allowed (found ${tree.stmts.length})` }];
  }
  const top = tree.stmts[0]!.stmt ?? {};
  const topType = Object.keys(top)[0] ?? 'empty';
  if (topType !== 'SelectStmt') {
    return [{ code: 'SQL_NOT_SELECT', message: `Only SELECT (or WITH … SELECT) is allowed, not ${topType.replace(/Stmt$/, '')}` }];
  }
  walk(tree, (type, node) => {
    if (DATA_MODIFYING.has(type)) {
      errors.push({ code: 'SQL_DATA_MODIFYING', message: `A data-modifying statement (${type.replace(/Stmt$/, '').toUpperCase()}) is not allowed, not even in a WITH clause` });
    } else if (type.endsWith('Stmt') && type !== 'SelectStmt') {
      errors.push({ code: 'SQL_NOT_SELECT', message: `Only SELECT is allowed, not ${type.replace(/Stmt$/, '')}` });
    } else if (type === 'SelectStmt') {
      if (node.intoClause) errors.push({ code: 'SQL_SELECT_INTO', message: 'SELECT INTO is not allowed: the transform\'s output is its materialization' });
      if (Array.isArray(node.lockingClause) && node.lockingClause.length > 0) {
        errors.push({ code: 'SQL_LOCKING_CLAUSE', message: 'Locking clauses (FOR UPDATE, FOR SHARE, …) are not allowed' });
      }
    } else if (type === 'FuncCall') {
      const qualified = names(node.funcname);
      const name = qualified[qualified.length - 1]!.toLowerCase();
      const schemaOk = qualified.length === 1 || (qualified.length === 2 && qualified[0] === 'pg_catalog');
      if (!schemaOk || !ALLOWED_FUNCTIONS.has(name)) {
        errors.push({ code: 'SQL_FUNCTION_NOT_ALLOWED', message: `Function ${qualified.join('.')} is not on the allowlist`, ...at(node.location) });
      }
    } else if (type === 'TypeCast' || type === 'TypeName') {
      const typeNode = (type === 'TypeCast' ? node.typeName : node) as { names?: unknown; location?: number } | undefined;
      const typeName = names(typeNode?.names).pop() ?? '';
      if (/^reg/.test(typeName)) errors.push({ code: 'SQL_CAST_NOT_ALLOWED', message: `Type ${typeName} is not allowed (it reads the catalog)`, ...at(typeNode?.location) });
    }
  });
  return errors;
}
