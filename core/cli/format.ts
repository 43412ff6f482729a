// The human (non --json) output of every `platform` command: one formatter,
// so that all commands print alike. Dates are ISO 8601; a list (an array, or
// a page `{items, total, skip, limit}`) is an aligned table; one record is
// `key: value` lines with the values aligned, its nested records flattened to dotted keys and
// its lists of records printed as tables under their key.

/** Widest table cell: longer text is cut (the whole value is in --json). */
const MAX_CELL = 60;

type Row = Record<string, unknown>;

const isRecord = (value: unknown): value is Row =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);

const isTable = (value: unknown): value is Row[] => Array.isArray(value) && value.length > 0 && value.every(isRecord);

/** A value as text: dates as ISO 8601, nested structures as JSON (whose dates JSON also writes as ISO 8601). */
function text(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (Array.isArray(value) && value.every((item) => !isRecord(item) && !Array.isArray(item))) return value.map(text).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function cell(value: unknown): string {
  const flat = text(value).replace(/\s*\n\s*/g, ' ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/** Rows under a header of every column any row has (in order of first appearance), each column as wide as its widest cell. */
export function table(rows: Row[]): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i].length)));
  const line = (values: string[]) => values.map((value, i) => (i === values.length - 1 ? value : value.padEnd(widths[i]))).join('  ');
  return [line(columns), ...cells.map(line)].join('\n');
}

/** A record's scalar fields as `key: value` lines, values aligned (nested records as dotted keys), then each list of records as a table under its key. */
function record(row: Row): string {
  const fields: [string, unknown][] = [];
  const tables: [string, Row[]][] = [];
  const walk = (value: Row, prefix: string) => {
    for (const [key, field] of Object.entries(value)) {
      if (isRecord(field) && Object.keys(field).length > 0) walk(field, `${prefix}${key}.`);
      else if (isTable(field)) tables.push([`${prefix}${key}`, field]);
      else fields.push([`${prefix}${key}`, field]);
    }
  };
  walk(row, '');
  const width = Math.max(0, ...fields.map(([key]) => key.length + 1));
  const parts = fields.length > 0 ? [fields.map(([key, value]) => `${`${key}:`.padEnd(width)} ${text(value)}`).join('\n')] : [];
  for (const [key, rows] of tables) parts.push(`${key}:\n${indent(table(rows))}`);
  return parts.join('\n\n');
}

const indent = (block: string) => block.split('\n').map((line) => `  ${line}`).join('\n');

/** A page of a list: its table, then where it sits in the whole list. */
function page(result: Row & { items: unknown[] }): string {
  const { items, total, skip, limit: _limit, ...rest } = result;
  const body = list(items);
  const extra = Object.keys(rest).length > 0 ? `\n\n${record(rest)}` : '';
  if (typeof total !== 'number') return body + extra;
  const from = typeof skip === 'number' ? skip : 0;
  const shown = items.length === 0 ? `0 of ${total}` : `${from + 1}-${from + items.length} of ${total}`;
  return `${body}\n(${shown})${extra}`;
}

function list(items: unknown[]): string {
  if (items.length === 0) return '(none)';
  if (isTable(items)) return table(items);
  return items.map((item) => (isRecord(item) ? record(item) : text(item))).join('\n');
}

/** A command's result as the human output prints it (no trailing newline). */
export function formatHuman(result: unknown): string {
  if (result === undefined) return '';
  if (Array.isArray(result)) return list(result);
  if (isRecord(result)) return Array.isArray(result.items) ? page(result as Row & { items: unknown[] }) : record(result);
  return text(result);
}
