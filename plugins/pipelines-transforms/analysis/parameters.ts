// Parameters of tenant SQL. The SQL uses PostgreSQL's own placeholders
// ($1, $2, …), never text substitution: values travel separately from the
// statement. A transform declares its parameters as a JSON object of named
// entries, and the Nth entry (declaration order) is $N. An entry is either a
// JSON Schema declaration ({"type": "number", "default": 10}) or a bare value
// (its JSON type is its declared type). Values given at run time replace
// defaults by name and are validated against the declaration.
import { createAjv } from 'agent-platform/sdk';
import type { SqlError } from './types.ts';

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const ajv = createAjv();

const CASTS: Record<string, string> = { string: 'text', integer: 'bigint', number: 'numeric', boolean: 'boolean', object: 'jsonb', array: 'jsonb' };

function isDeclaration(entry: unknown): entry is Record<string, unknown> {
  return !!entry && typeof entry === 'object' && !Array.isArray(entry) && typeof (entry as { type?: unknown }).type === 'string';
}

function jsonTypeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (value === null) return 'string';
  return typeof value;
}

export interface BoundParameters {
  values: unknown[];
  casts: string[];
  errors: SqlError[];
}

export function bindParameters(declared: Record<string, unknown> = {}, given: Record<string, unknown> = {}, highestUsed = 0): BoundParameters {
  const entries = Object.entries(declared);
  const errors: SqlError[] = [];
  const values: unknown[] = [];
  const casts: string[] = [];
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(declared, name)) errors.push({ code: 'SQL_PARAMETER_UNKNOWN', message: `Parameter "${name}" is not declared` });
  }
  for (const [name, entry] of entries) {
    if (!NAME.test(name)) {
      errors.push({ code: 'SQL_PARAMETER_INVALID', message: `Parameter name "${name.slice(0, 80)}" must match ${NAME.source}` });
      continue;
    }
    const declaration = isDeclaration(entry) ? entry : { type: jsonTypeOf(entry), default: entry };
    const type = declaration.type as string;
    const cast = CASTS[type];
    if (!cast) {
      errors.push({ code: 'SQL_PARAMETER_INVALID', message: `Parameter "${name}" has type "${type}"; use string, integer, number, boolean, object or array` });
      continue;
    }
    const value = Object.hasOwn(given, name) ? given[name] : declaration.default;
    if (value === undefined) {
      errors.push({ code: 'SQL_PARAMETER_MISSING', message: `Parameter "${name}" has no value and no default` });
      continue;
    }
    let valid = false;
    try {
      valid = value === null || ajv.validate(declaration, value);
    } catch {
      errors.push({ code: 'SQL_PARAMETER_INVALID', message: `Parameter "${name}" has an invalid JSON Schema` });
      continue;
    }
    if (!valid) errors.push({ code: 'SQL_PARAMETER_INVALID', message: `Parameter "${name}": ${ajv.errorsText(ajv.errors, { dataVar: name })}` });
    values.push(cast === 'jsonb' && value !== null ? JSON.stringify(value) : value);
    casts.push(cast);
  }
  if (highestUsed > entries.length) {
    errors.push({ code: 'SQL_PARAMETER_UNDECLARED', message: `The SQL uses $${highestUsed} but ${entries.length} parameter(s) are declared ($N is the Nth declared parameter)` });
  }
  return { values, casts, errors };
}
