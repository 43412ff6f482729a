// CONDITION steps: `field` (a dot path into the execution context) compared
// with `value` by an operator. Pure, web-standard JavaScript.
import { MISSING, valueAt } from './paths.ts';
import type { ConditionOperator } from './types.ts';

export const CONDITION_OPERATORS: ConditionOperator[] = ['==', '!=', '>', '>=', '<', '<=', 'in', 'contains', 'exists'];

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function ordered(a: unknown, b: unknown): a is number | string {
  return (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
}

export function evaluateCondition(
  condition: { field: string; operator: ConditionOperator; value?: unknown },
  context: unknown,
): boolean {
  const found = valueAt(context, condition.field);
  const value = found === MISSING ? undefined : found;
  const expected = condition.value;
  switch (condition.operator) {
    case '==': return sameValue(value, expected);
    case '!=': return !sameValue(value, expected);
    case '>': return ordered(value, expected) && value > (expected as typeof value);
    case '>=': return ordered(value, expected) && value >= (expected as typeof value);
    case '<': return ordered(value, expected) && value < (expected as typeof value);
    case '<=': return ordered(value, expected) && value <= (expected as typeof value);
    case 'in': return Array.isArray(expected) && expected.some((item) => sameValue(item, value));
    case 'contains':
      if (typeof value === 'string') return typeof expected === 'string' && value.includes(expected);
      return Array.isArray(value) && value.some((item) => sameValue(item, expected));
    case 'exists': return (value !== undefined && value !== null) === (expected === undefined ? true : Boolean(expected));
  }
}
