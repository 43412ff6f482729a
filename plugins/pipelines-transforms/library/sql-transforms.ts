// The built-in SQL transform library: column-level recipes by SQL type. An
// entry's SQL is a template over three slots filled at apply time —
// {{input}} (a dataset id the tenant may read), {{column}} and
// {{output_column}} (quoted identifiers) — and its own $N parameters
// (JSON Schema declarations with defaults, overridable on apply).
export interface SqlLibraryEntry {
  id: string;
  name: string;
  description: string;
  category: string;
  /** The lake column types the entry applies to (GET /sql-transforms/for-type/{sql_type}). */
  sql_types: string[];
  sql: string;
  parameters: Record<string, unknown>;
}

export const SQL_LIBRARY: SqlLibraryEntry[] = [
  {
    id: 'trim_whitespace', name: 'Trim and collapse whitespace', category: 'cleaning', sql_types: ['text'],
    description: 'Trims a text column, collapses inner whitespace to one space and turns empty strings into null',
    sql: "SELECT *, nullif(regexp_replace(btrim({{column}}), '\\s+', ' ', 'g'), '') AS {{output_column}} FROM {{input}}", parameters: {},
  },
  {
    id: 'lowercase', name: 'Lower case', category: 'cleaning', sql_types: ['text'],
    description: 'Lower-cases a text column (e-mail addresses, codes)', sql: 'SELECT *, lower({{column}}) AS {{output_column}} FROM {{input}}', parameters: {},
  },
  {
    id: 'parse_date', name: 'Parse a date', category: 'dates', sql_types: ['text'],
    description: 'Parses a text column into a date with a to_date format', sql: 'SELECT *, to_date({{column}}, $1) AS {{output_column}} FROM {{input}}',
    parameters: { format: { type: 'string', default: 'YYYY-MM-DD', maxLength: 100 } },
  },
  {
    id: 'round_number', name: 'Round a number', category: 'math', sql_types: ['numeric', 'double', 'bigint'],
    description: 'Rounds a numeric column to a number of decimals', sql: 'SELECT *, round({{column}}::numeric, $1::int) AS {{output_column}} FROM {{input}}',
    parameters: { decimals: { type: 'integer', default: 2, minimum: 0, maximum: 20 } },
  },
  {
    id: 'bucket_number', name: 'Bucket a number', category: 'math', sql_types: ['numeric', 'double', 'bigint'],
    description: 'Puts a numeric column into equal-width buckets between a low and a high bound',
    sql: 'SELECT *, width_bucket({{column}}::float8, $1::float8, $2::float8, $3::int) AS {{output_column}} FROM {{input}}',
    parameters: { low: { type: 'number', default: 0 }, high: { type: 'number', default: 100 }, buckets: { type: 'integer', default: 10, minimum: 1, maximum: 1000 } },
  },
  {
    id: 'truncate_time', name: 'Truncate a timestamp', category: 'dates', sql_types: ['timestamptz', 'date'],
    description: 'Truncates a timestamp or date to a unit (hour, day, week, month, quarter, year)',
    sql: 'SELECT *, date_trunc($1, {{column}}) AS {{output_column}} FROM {{input}}',
    parameters: { unit: { type: 'string', default: 'day', enum: ['hour', 'day', 'week', 'month', 'quarter', 'year'] } },
  },
  {
    id: 'json_field', name: 'Extract a JSON field', category: 'json', sql_types: ['jsonb'],
    description: 'Extracts one top-level field of a JSON column as text', sql: 'SELECT *, {{column}} ->> $1 AS {{output_column}} FROM {{input}}',
    parameters: { field: { type: 'string', default: 'id', maxLength: 200 } },
  },
  {
    id: 'count_by', name: 'Count rows by value', category: 'aggregation', sql_types: ['text', 'bigint', 'boolean', 'date', 'uuid'],
    description: 'Counts the rows of each distinct value of a column', sql: 'SELECT {{column}}, count(*) AS {{output_column}} FROM {{input}} GROUP BY {{column}}', parameters: {},
  },
];
