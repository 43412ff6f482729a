// Rows given as objects become lines of PostgreSQL's COPY text format, each
// value coerced to its column's lake type. A value that does not fit (a word
// where an integer goes, an unparseable date) is stored as null and counted:
// one bad value never fails a whole sync. Text loses NUL characters, which
// PostgreSQL cannot store.
import type { LakeColumn, LakeType } from '../datasets/types.ts';
import { isUuidText } from 'agent-platform/sdk';

const NULL = '\\N';
const INTEGER = /^-?\d{1,19}$/;
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INT8_MAX = 9223372036854775807n;

function escape(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\u0000') continue;
    else out += ch;
  }
  return out;
}

/** The text PostgreSQL parses as the type, or undefined when the value does not fit it. */
function coerce(value: unknown, type: LakeType): string | undefined {
  switch (type) {
    case 'bigint': {
      if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : undefined;
      if (typeof value === 'bigint') return value <= INT8_MAX && value >= -INT8_MAX - 1n ? String(value) : undefined;
      if (typeof value === 'string' && INTEGER.test(value.trim())) {
        const parsed = BigInt(value.trim());
        return parsed <= INT8_MAX && parsed >= -INT8_MAX - 1n ? String(parsed) : undefined;
      }
      return undefined;
    }
    case 'double':
      if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
      if (typeof value === 'string' && DECIMAL.test(value.trim())) return value.trim();
      return undefined;
    case 'numeric':
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value === 'bigint') return String(value);
      if (typeof value === 'string' && DECIMAL.test(value.trim())) return value.trim();
      return undefined;
    case 'boolean':
      if (typeof value === 'boolean') return value ? 't' : 'f';
      if (value === 'true' || value === 'false') return value === 'true' ? 't' : 'f';
      return undefined;
    case 'timestamptz': {
      const date = value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
      return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
    }
    case 'date':
      if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString().slice(0, 10);
      if (typeof value === 'string' && DATE.test(value.slice(0, 10)) && !Number.isNaN(Date.parse(value.slice(0, 10)))) return value.slice(0, 10);
      return undefined;
    case 'uuid':
      return isUuidText(value) ? value : undefined;
    case 'jsonb':
      return escape(JSON.stringify(value));
    default:
      if (typeof value === 'string') return escape(value);
      if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
      if (value instanceof Date) return value.toISOString();
      return escape(JSON.stringify(value));
  }
}

export interface EncodedBatch {
  text: string;
  rows: number;
  typeErrors: number;
}

/** Lines of COPY text for `columns` (in order); absent and null properties are null. */
export function encodeRows(rows: Record<string, unknown>[], columns: LakeColumn[]): EncodedBatch {
  let text = '';
  let typeErrors = 0;
  for (const row of rows) {
    const values: string[] = [];
    for (const column of columns) {
      const value = row?.[column.name];
      if (value === null || value === undefined) {
        values.push(NULL);
        continue;
      }
      const encoded = coerce(value, column.type);
      if (encoded === undefined) typeErrors++;
      values.push(encoded ?? NULL);
    }
    text += `${values.join('\t')}\n`;
  }
  return { text, rows: rows.length, typeErrors };
}
