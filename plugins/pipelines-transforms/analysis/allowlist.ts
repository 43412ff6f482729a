// The functions tenant SQL may call (unqualified or in pg_catalog). Anything
// else is refused before the SQL runs: no file, network, session, catalog,
// large-object or sequence functions (pg_*, dblink*, lo_*, set_config,
// current_setting, nextval, query_to_xml, …). Kept explicit on purpose: a
// function added to PostgreSQL is refused until it is reviewed and listed.
const AGGREGATES = [
  'count', 'sum', 'avg', 'min', 'max', 'bool_and', 'bool_or', 'every', 'string_agg', 'array_agg', 'json_agg', 'jsonb_agg',
  'json_object_agg', 'jsonb_object_agg', 'stddev', 'stddev_pop', 'stddev_samp', 'variance', 'var_pop', 'var_samp',
  'percentile_cont', 'percentile_disc', 'mode', 'corr', 'covar_pop', 'covar_samp', 'regr_slope', 'regr_intercept',
  'bit_and', 'bit_or', 'any_value',
];
const WINDOW = ['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value'];
const MATH = [
  'abs', 'ceil', 'ceiling', 'floor', 'round', 'trunc', 'sign', 'sqrt', 'cbrt', 'power', 'pow', 'exp', 'ln', 'log', 'log10', 'mod',
  'div', 'greatest', 'least', 'pi', 'degrees', 'radians', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'width_bucket',
  'random', 'gcd', 'lcm', 'scale', 'numeric', 'int4', 'int8', 'float8', 'generate_series',
];
const STRING = [
  'lower', 'upper', 'initcap', 'length', 'char_length', 'character_length', 'octet_length', 'trim', 'btrim', 'ltrim', 'rtrim',
  'substr', 'substring', 'left', 'right', 'replace', 'concat', 'concat_ws', 'position', 'strpos', 'lpad', 'rpad', 'repeat',
  'reverse', 'split_part', 'string_to_array', 'array_to_string', 'regexp_replace', 'regexp_match', 'regexp_matches',
  'regexp_split_to_array', 'regexp_like', 'starts_with', 'translate', 'format', 'md5', 'sha256', 'encode', 'decode',
  'to_char', 'to_number', 'quote_literal', 'quote_ident', 'overlay', 'ascii', 'chr', 'unaccent', 'normalize',
];
const DATE = [
  'now', 'current_date', 'date_trunc', 'date_part', 'extract', 'age', 'to_date', 'to_timestamp', 'make_date', 'make_time',
  'make_timestamp', 'make_timestamptz', 'make_interval', 'date_bin', 'justify_days', 'justify_hours', 'isfinite', 'timezone',
  'clock_timestamp', 'statement_timestamp', 'transaction_timestamp', 'date',
];
const JSON_FUNCTIONS = [
  'to_json', 'to_jsonb', 'json_build_object', 'jsonb_build_object', 'json_build_array', 'jsonb_build_array', 'json_object',
  'jsonb_object', 'json_array_length', 'jsonb_array_length', 'json_extract_path', 'jsonb_extract_path', 'json_extract_path_text',
  'jsonb_extract_path_text', 'json_typeof', 'jsonb_typeof', 'jsonb_set', 'jsonb_insert', 'jsonb_strip_nulls', 'json_strip_nulls',
  'jsonb_pretty', 'json_array_elements', 'jsonb_array_elements', 'json_array_elements_text', 'jsonb_array_elements_text',
  'json_each', 'jsonb_each', 'json_each_text', 'jsonb_each_text', 'json_object_keys', 'jsonb_object_keys', 'jsonb_path_query',
  'jsonb_path_query_first', 'jsonb_path_exists', 'jsonb_path_match', 'row_to_json', 'array_to_json',
];
const ARRAYS_AND_MISC = [
  'coalesce', 'nullif', 'array_length', 'array_position', 'array_positions', 'array_append', 'array_prepend', 'array_cat',
  'array_remove', 'array_replace', 'cardinality', 'unnest', 'array_lower', 'array_upper', 'num_nulls', 'num_nonnulls',
  'gen_random_uuid', 'uuid_generate_v4', 'bool', 'text',
];

export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set([...AGGREGATES, ...WINDOW, ...MATH, ...STRING, ...DATE, ...JSON_FUNCTIONS, ...ARRAYS_AND_MISC]);

/** Functions whose result changes from run to run (review-sql warns about them). */
export const NON_DETERMINISTIC: ReadonlySet<string> = new Set([
  'random', 'now', 'clock_timestamp', 'statement_timestamp', 'transaction_timestamp', 'gen_random_uuid', 'uuid_generate_v4',
]);
