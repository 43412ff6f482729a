// What a dataset's columns look like from a sample of its rows: the lake type,
// the pattern most non-null values follow (emails, dates, numbers in text…),
// how many are null or distinct. The deterministic suggestions rest on it.
import type { LakeColumn } from '../../lakehouse/api.ts';
import { UUID_PATTERN } from 'agent-platform/sdk';

export type ValuePattern = 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'email' | 'uuid' | 'url' | 'phone' | 'json' | 'text';

export interface ColumnProfile {
  name: string;
  type: string;
  /** The pattern of at least 80% of the non-null sampled values ('text' when none dominates). */
  pattern: ValuePattern;
  nulls: number;
  distinct: number;
  sampled: number;
}

const PATTERNS: [ValuePattern, RegExp][] = [
  ['uuid', UUID_PATTERN],
  ['email', /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/],
  ['url', /^https?:\/\/\S+$/i],
  ['datetime', /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d(:?\d\d)?)?$/],
  ['date', /^\d{4}-\d\d-\d\d$|^\d\d?\/\d\d?\/\d{4}$/],
  ['integer', /^[+-]?\d{1,18}$/],
  ['number', /^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$/],
  ['boolean', /^(true|false|yes|no)$/i],
  ['phone', /^\+?[\d\s().-]{7,20}$/],
];

export function patternOf(value: unknown): ValuePattern {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (value instanceof Date) return 'datetime';
  if (value !== null && typeof value === 'object') return 'json';
  const text = String(value).trim();
  return PATTERNS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'text';
}

export function profileColumns(columns: LakeColumn[], rows: Record<string, unknown>[]): ColumnProfile[] {
  return columns.map((column) => {
    const values = rows.map((row) => row[column.name]);
    const present = values.filter((value) => value !== null && value !== undefined && value !== '');
    const counts = new Map<ValuePattern, number>();
    for (const value of present) counts.set(patternOf(value), (counts.get(patternOf(value)) ?? 0) + 1);
    // Integers are numbers too: 1, 2.5 and 3 are a number column; dates likewise datetimes.
    for (const [narrow, wide] of [['integer', 'number'], ['date', 'datetime']] as const) {
      if (counts.has(narrow) && counts.has(wide)) {
        counts.set(wide, counts.get(wide)! + counts.get(narrow)!);
        counts.delete(narrow);
      }
    }
    const [top, topCount] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['text', 0];
    return {
      name: column.name,
      type: column.type,
      pattern: present.length && topCount / present.length >= 0.8 ? top : 'text',
      nulls: values.length - present.length,
      distinct: new Set(present.map((value) => JSON.stringify(value))).size,
      sampled: values.length,
    };
  });
}
