// Event filters, shared by triggers and WAIT steps.
// Keys are dot paths into the event; each value is an array of conditions.
// Keys combine with AND; the conditions of one array combine with OR.
// A condition is a literal (equality), {prefix}, {numeric: [op, n(, op, n)]}
// or {exists: boolean}.
import { MISSING, valueAt } from './paths.ts';

export type Condition =
  | string | number | boolean | null
  | { prefix: string }
  | { numeric: (string | number)[] }
  | { exists: boolean };

export type EventFilter = Record<string, Condition[]>;

export interface KeyResult {
  matched: boolean;
  /** The value found at the path (undefined when the path is missing). */
  value: unknown;
  reason: string;
}

const NUMERIC_OPS = ['>', '<', '>=', '<='] as const;
type NumericOp = (typeof NUMERIC_OPS)[number];

/** Every problem with a filter, each naming the key; empty when valid. */
export function validateFilter(filter: unknown): string[] {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) return ['filter must be an object'];
  const errors: string[] = [];
  for (const [key, conditions] of Object.entries(filter)) {
    if (!key || key.split('.').some((segment) => segment === '')) errors.push(`"${key}": not a dot path`);
    if (!Array.isArray(conditions) || conditions.length === 0) {
      errors.push(`"${key}": conditions must be a non-empty array`);
      continue;
    }
    conditions.forEach((condition, index) => {
      const problem = conditionProblem(condition);
      if (problem) errors.push(`"${key}"[${index}]: ${problem}`);
    });
  }
  return errors;
}

function conditionProblem(condition: unknown): string | undefined {
  if (condition === null || ['string', 'number', 'boolean'].includes(typeof condition)) return undefined;
  if (typeof condition !== 'object' || Array.isArray(condition)) return 'must be a literal or an operator object';
  const keys = Object.keys(condition);
  if (keys.length !== 1) return 'an operator object has exactly one of prefix, numeric, exists';
  const [operator] = keys;
  const operand = (condition as Record<string, unknown>)[operator];
  switch (operator) {
    case 'prefix':
      return typeof operand === 'string' ? undefined : 'prefix must be a string';
    case 'exists':
      return typeof operand === 'boolean' ? undefined : 'exists must be true or false';
    case 'numeric': {
      if (!Array.isArray(operand) || (operand.length !== 2 && operand.length !== 4)) {
        return 'numeric must be [op, n] or [op, n, op, n]';
      }
      for (let i = 0; i < operand.length; i += 2) {
        if (!NUMERIC_OPS.includes(operand[i] as NumericOp)) return `numeric operator must be one of ${NUMERIC_OPS.join(' ')}`;
        if (typeof operand[i + 1] !== 'number' || !Number.isFinite(operand[i + 1])) return 'numeric operand must be a number';
      }
      return undefined;
    }
    default:
      return `unknown operator "${operator}"`;
  }
}

function compare(op: NumericOp, value: number, bound: number): boolean {
  switch (op) {
    case '>': return value > bound;
    case '<': return value < bound;
    case '>=': return value >= bound;
    case '<=': return value <= bound;
  }
}

function conditionMatches(condition: Condition, value: unknown): boolean {
  if (condition === null || typeof condition !== 'object') return value !== MISSING && value === condition;
  if ('exists' in condition) return (value !== MISSING && value !== null) === condition.exists;
  if (value === MISSING) return false;
  if ('prefix' in condition) return typeof value === 'string' && value.startsWith(condition.prefix);
  if ('numeric' in condition) {
    if (typeof value !== 'number') return false;
    const ops = condition.numeric;
    for (let i = 0; i < ops.length; i += 2) if (!compare(ops[i] as NumericOp, value, ops[i + 1] as number)) return false;
    return true;
  }
  return false;
}

/** Evaluates a filter against an event, with a per-key explanation. */
export function evaluateFilter(filter: EventFilter, event: unknown): { matched: boolean; keys: Record<string, KeyResult> } {
  const keys: Record<string, KeyResult> = {};
  for (const [path, conditions] of Object.entries(filter)) {
    const value = valueAt(event, path);
    const hit = conditions.find((condition) => conditionMatches(condition, value));
    keys[path] = {
      matched: hit !== undefined,
      value: value === MISSING ? undefined : value,
      reason: hit !== undefined
        ? `matched ${JSON.stringify(hit)}`
        : value === MISSING ? 'path is missing' : `no condition matched ${JSON.stringify(value)}`,
    };
  }
  return { matched: Object.values(keys).every((key) => key.matched), keys };
}

export function matchesFilter(filter: EventFilter, event: unknown): boolean {
  for (const [path, conditions] of Object.entries(filter)) {
    const value = valueAt(event, path);
    if (!conditions.some((condition) => conditionMatches(condition, value))) return false;
  }
  return true;
}
