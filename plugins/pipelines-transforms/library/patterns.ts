// The built-in transform patterns: deduplicate by key, filter, join,
// aggregate, pivot, type casting and cleaning, geocode lat/lon into points
// (GeoJSON jsonb or WKT text — no PostGIS), slowly-changing dimension type 2.
import { badRequest } from 'agent-platform/sdk';
import { datasetRef, ident as q, ParameterList } from './sql.ts';
import { columnList, columnParam, datasetParam, requireColumns, type TransformPattern } from './pattern-types.ts';

const CASTS: Record<string, string> = { uuid: 'uuid', text: 'text', bigint: 'bigint', double: 'float8', numeric: 'numeric', boolean: 'boolean', timestamptz: 'timestamptz', date: 'date', jsonb: 'jsonb' };
const OPERATORS: Record<string, string> = { eq: '=', ne: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=', like: 'LIKE' };
const AGGREGATES: Record<string, (column: string) => string> = {
  sum: (c) => `sum(${c})`, avg: (c) => `avg(${c})`, min: (c) => `min(${c})`, max: (c) => `max(${c})`, count: (c) => `count(${c})`, count_distinct: (c) => `count(DISTINCT ${c})`,
};
const object = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', additionalProperties: false, required, properties });

export const PATTERNS: TransformPattern[] = [
  {
    id: 'dedupe_by_key', name: 'Deduplicate by key', category: 'cleaning',
    description: 'Keeps one row per key: the newest (or oldest) by an ordering column',
    parameters_schema: object({ input: datasetParam, key: columnList, order_by: columnParam, keep: { type: 'string', enum: ['newest', 'oldest'], default: 'newest' } }, ['input', 'key', 'order_by']),
    async compile(p, columns) {
      await requireColumns(columns, p.input, [...p.key, p.order_by]);
      const keys = (p.key as string[]).map(q).join(', ');
      return { sql: `SELECT DISTINCT ON (${keys}) * FROM ${datasetRef(p.input)} ORDER BY ${keys}, ${q(p.order_by)} ${p.keep === 'oldest' ? 'ASC' : 'DESC'} NULLS LAST`, parameters: {}, unique_key: p.key };
    },
  },
  {
    id: 'filter', name: 'Filter rows', category: 'filtering',
    description: 'Keeps the rows matching every (or any) condition; values are bound parameters',
    parameters_schema: object({
      input: datasetParam,
      conditions: { type: 'array', minItems: 1, maxItems: 50, items: object({ column: columnParam, operator: { type: 'string', enum: [...Object.keys(OPERATORS), 'is_null', 'not_null', 'in'] }, value: {} }, ['column', 'operator']) },
      match: { type: 'string', enum: ['all', 'any'], default: 'all' },
    }, ['input', 'conditions']),
    async compile(p, columns) {
      const types = new Map((await requireColumns(columns, p.input, p.conditions.map((c: { column: string }) => c.column))).map((c) => [c.name, c.type]));
      const params = new ParameterList();
      // The value is compared in the column's own type (numbers as numbers), LIKE as text.
      const typed = (column: string, operator: string, placeholder: string) =>
        (operator === 'like' ? `${q(column)}::text LIKE ${placeholder}` : `${q(column)} ${OPERATORS[operator]} ${placeholder}::${CASTS[types.get(column)!] ?? 'text'}`);
      const clauses = (p.conditions as { column: string; operator: string; value?: unknown }[]).map(({ column, operator, value }) => {
        if (operator === 'is_null') return `${q(column)} IS NULL`;
        if (operator === 'not_null') return `${q(column)} IS NOT NULL`;
        if (operator === 'in') return `${q(column)}::text = ANY (ARRAY(SELECT jsonb_array_elements_text(${params.add(Array.isArray(value) ? value : [value])})))`;
        return typed(column, operator, params.add(value === undefined || value === null ? null : String(value)));
      });
      return { sql: `SELECT * FROM ${datasetRef(p.input)} WHERE ${clauses.map((c) => `(${c})`).join(p.match === 'any' ? ' OR ' : ' AND ')}`, parameters: params.declarations };
    },
  },
  {
    id: 'join', name: 'Join two datasets', category: 'combining',
    description: 'Joins a right dataset\'s columns onto the left one by key columns',
    parameters_schema: object({
      left: datasetParam, right: datasetParam, left_key: columnList, right_key: columnList, right_columns: columnList,
      type: { type: 'string', enum: ['inner', 'left'], default: 'left' },
    }, ['left', 'right', 'left_key', 'right_key', 'right_columns']),
    async compile(p, columns) {
      if (p.left_key.length !== p.right_key.length) throw badRequest('left_key and right_key need the same number of columns', 'PATTERN_INVALID');
      await requireColumns(columns, p.left, p.left_key);
      await requireColumns(columns, p.right, [...p.right_key, ...p.right_columns]);
      const on = (p.left_key as string[]).map((k, i) => `l.${q(k)} = r.${q(p.right_key[i])}`).join(' AND ');
      const picked = (p.right_columns as string[]).map((c) => `r.${q(c)} AS ${q(`right_${c}`)}`).join(', ');
      return { sql: `SELECT l.*, ${picked} FROM ${datasetRef(p.left)} AS l ${p.type === 'inner' ? 'JOIN' : 'LEFT JOIN'} ${datasetRef(p.right)} AS r ON ${on}`, parameters: {} };
    },
  },
  {
    id: 'aggregate', name: 'Aggregate', category: 'aggregation',
    description: 'Groups rows by columns and computes measures (sum, avg, min, max, count, count_distinct)',
    parameters_schema: object({
      input: datasetParam, group_by: { ...columnList, minItems: 0 },
      measures: { type: 'array', minItems: 1, maxItems: 50, items: object({ column: columnParam, function: { type: 'string', enum: Object.keys(AGGREGATES) }, as: columnParam }, ['column', 'function', 'as']) },
    }, ['input', 'measures']),
    async compile(p, columns) {
      const groups = (p.group_by ?? []) as string[];
      await requireColumns(columns, p.input, [...groups, ...p.measures.map((m: { column: string }) => m.column)]);
      const measures = (p.measures as { column: string; function: string; as: string }[]).map((m) => `${AGGREGATES[m.function]!(q(m.column))} AS ${q(m.as)}`);
      const select = [...groups.map(q), ...measures].join(', ');
      return { sql: `SELECT ${select} FROM ${datasetRef(p.input)}${groups.length ? ` GROUP BY ${groups.map(q).join(', ')}` : ''}`, parameters: {}, ...(groups.length ? { unique_key: groups } : {}) };
    },
  },
  {
    id: 'pivot', name: 'Pivot', category: 'reshaping',
    description: 'Turns the values of one column into columns (one per listed value), aggregating a value column per row key',
    parameters_schema: object({
      input: datasetParam, row_key: columnList, pivot_column: columnParam, value_column: columnParam,
      values: { type: 'array', minItems: 1, maxItems: 50, uniqueItems: true, items: { type: 'string', pattern: '^[A-Za-z0-9_ -]{1,50}$' } },
      function: { type: 'string', enum: ['sum', 'max', 'min', 'count', 'avg'], default: 'sum' },
    }, ['input', 'row_key', 'pivot_column', 'value_column', 'values']),
    async compile(p, columns) {
      await requireColumns(columns, p.input, [...p.row_key, p.pivot_column, p.value_column]);
      const params = new ParameterList();
      const fn = AGGREGATES[p.function ?? 'sum']!;
      const pivots = (p.values as string[]).map((value) => `${fn(q(p.value_column))} FILTER (WHERE ${q(p.pivot_column)}::text = ${params.add(value)}) AS ${q(value.replace(/[^A-Za-z0-9_]/g, '_'))}`);
      const keys = (p.row_key as string[]).map(q).join(', ');
      return { sql: `SELECT ${keys}, ${pivots.join(', ')} FROM ${datasetRef(p.input)} GROUP BY ${keys}`, parameters: params.declarations, unique_key: p.row_key };
    },
  },
  {
    id: 'type_cast_clean', name: 'Cast and clean columns', category: 'cleaning',
    description: 'Casts columns to a type, trims text and turns listed placeholder values (e.g. "N/A") into null; other columns are kept as they are',
    parameters_schema: object({
      input: datasetParam,
      columns: { type: 'array', minItems: 1, maxItems: 100, items: object({ column: columnParam, cast: { type: 'string', enum: Object.keys(CASTS) }, trim: { type: 'boolean', default: true }, null_if: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 100 } } }, ['column', 'cast']) },
    }, ['input', 'columns']),
    async compile(p, columns) {
      const specs = p.columns as { column: string; cast: string; trim?: boolean; null_if?: string[] }[];
      const all = await requireColumns(columns, p.input, specs.map((s) => s.column));
      const params = new ParameterList();
      const bySpec = new Map(specs.map((s) => [s.column, s]));
      const select = all.map(({ name }) => {
        const spec = bySpec.get(name);
        if (!spec) return q(name);
        let value = spec.trim === false ? `${q(name)}::text` : `btrim(${q(name)}::text)`;
        if (spec.null_if?.length) value = `CASE WHEN ${value} = ANY (ARRAY(SELECT jsonb_array_elements_text(${params.add(spec.null_if)}))) THEN NULL ELSE ${value} END`;
        return `nullif(${value}, '')::${CASTS[spec.cast]} AS ${q(name)}`;
      });
      return { sql: `SELECT ${select.join(', ')} FROM ${datasetRef(p.input)}`, parameters: params.declarations };
    },
  },
  {
    id: 'geocode_points', name: 'Latitude/longitude to points', category: 'geo',
    description: 'Builds a point from latitude and longitude columns: GeoJSON (jsonb) or WKT (text); out-of-range coordinates give null. No PostGIS needed',
    parameters_schema: object({ input: datasetParam, lat_column: columnParam, lon_column: columnParam, output_column: { ...columnParam, default: 'geom' }, format: { type: 'string', enum: ['geojson', 'wkt'], default: 'geojson' } }, ['input', 'lat_column', 'lon_column']),
    async compile(p, columns) {
      await requireColumns(columns, p.input, [p.lat_column, p.lon_column]);
      const lat = `${q(p.lat_column)}::float8`;
      const lon = `${q(p.lon_column)}::float8`;
      const point = p.format === 'wkt' ? `format('POINT(%s %s)', ${lon}, ${lat})` : `jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(${lon}, ${lat}))`;
      return { sql: `SELECT *, CASE WHEN ${lat} BETWEEN -90 AND 90 AND ${lon} BETWEEN -180 AND 180 THEN ${point} END AS ${q(p.output_column ?? 'geom')} FROM ${datasetRef(p.input)}`, parameters: {} };
    },
  },
  {
    id: 'scd_type2', name: 'Slowly-changing dimension (type 2)', category: 'history',
    description: 'Keeps a version per change of the tracked columns of each key, with valid_from, valid_to and is_current',
    parameters_schema: object({ input: datasetParam, key: columnList, tracked: columnList, changed_at: columnParam }, ['input', 'key', 'tracked', 'changed_at']),
    async compile(p, columns) {
      const all = await requireColumns(columns, p.input, [...p.key, ...p.tracked, p.changed_at]);
      const keys = (p.key as string[]).map(q).join(', ');
      const tracked = `ROW(${(p.tracked as string[]).map(q).join(', ')})::text`;
      const ts = q(p.changed_at);
      const names = all.map((c) => q(c.name)).join(', ');
      return {
        sql: `WITH ordered AS (SELECT ${names}, ${tracked} AS _tracked, lag(${tracked}) OVER (PARTITION BY ${keys} ORDER BY ${ts}) AS _previous FROM ${datasetRef(p.input)}),
changes AS (SELECT ${names} FROM ordered WHERE _previous IS DISTINCT FROM _tracked)
SELECT ${names}, ${ts} AS valid_from, lead(${ts}) OVER (PARTITION BY ${keys} ORDER BY ${ts}) AS valid_to,
  lead(${ts}) OVER (PARTITION BY ${keys} ORDER BY ${ts}) IS NULL AS is_current FROM changes`,
        parameters: {}, unique_key: [...p.key, 'valid_from'],
      };
    },
  },
];
