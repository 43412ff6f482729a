// The `postgres` pattern: another PostgreSQL database. Discovery lists its
// tables and views as streams (the schema is the stream's namespace, a
// primary-key constraint its default key); a read is one
// `COPY (SELECT ...) TO STDOUT` whose output goes straight into the lake's
// COPY, never parsed into objects on the way: binary when every column's
// upstream type converts to its lake type exactly as its text would (both
// databases then skip formatting and parsing text), text otherwise.
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { LakeType } from '../../lakehouse/api.ts';
import { guardedAddress } from './network.ts';
import type { DiscoveredStream, JsonSchemaObject, PatternContext, SourcePattern, StreamRead } from './types.ts';

interface PostgresConfig {
  host: string;
  port: number;
  database: string;
  user: string;
  password?: string;
  ssl?: boolean;
  schemas?: string[];
}

const SYSTEM_SCHEMAS = ['pg_catalog', 'information_schema', 'pg_toast'];

const configSchema: JsonSchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['host', 'database', 'user'],
  properties: {
    host: { type: 'string', minLength: 1, maxLength: 253, description: 'Host name or address' },
    port: { type: 'integer', minimum: 1, maximum: 65535, default: 5432 },
    database: { type: 'string', minLength: 1, maxLength: 63 },
    user: { type: 'string', minLength: 1, maxLength: 63 },
    password: { type: 'string', maxLength: 1000, credential: true, description: 'Write-only' },
    ssl: { type: 'boolean', default: false, description: 'Require TLS (the server certificate is verified)' },
    schemas: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 63 }, maxItems: 100, description: 'Schemas to discover (default: every non-system schema)' },
  },
};

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The JSON Schema of a column of a given PostgreSQL type (information_schema.columns.data_type). */
function propertyOf(dataType: string): JsonSchemaObject {
  switch (dataType) {
    case 'smallint': case 'integer': case 'bigint': return { type: ['null', 'integer'] };
    case 'numeric': return { type: ['null', 'number'], format: 'decimal' };
    case 'real': case 'double precision': return { type: ['null', 'number'] };
    case 'boolean': return { type: ['null', 'boolean'] };
    case 'timestamp with time zone': case 'timestamp without time zone': return { type: ['null', 'string'], format: 'date-time' };
    case 'date': return { type: ['null', 'string'], format: 'date' };
    case 'uuid': return { type: ['null', 'string'], format: 'uuid' };
    case 'json': case 'jsonb': return { type: ['null', 'object', 'array'] };
    default: return { type: ['null', 'string'] };
  }
}

async function connect(context: PatternContext): Promise<pg.Client> {
  const config = context.config as unknown as PostgresConfig;
  const address = await guardedAddress(config.host, context.allowPrivateNetworks);
  const client = new pg.Client({
    host: address, port: config.port ?? 5432, database: config.database, user: config.user, password: config.password,
    ssl: config.ssl ? { servername: config.host, rejectUnauthorized: true } : false,
    connectionTimeoutMillis: 10_000, application_name: 'platform-pipelines',
  });
  client.on('error', () => {}); // a dropped connection fails the query in progress; nothing else to do
  await client.connect();
  // Timestamps without a zone are read as UTC; reads see one consistent snapshot.
  await client.query(`SET TimeZone = 'UTC'; SET DateStyle = 'ISO'; SET IntervalStyle = 'iso_8601'; SET extra_float_digits = 3`);
  return client;
}

async function discover(context: PatternContext): Promise<DiscoveredStream[]> {
  const client = await connect(context);
  try {
    const schemas = (context.config as unknown as PostgresConfig).schemas ?? null;
    const columns = await client.query<{ table_schema: string; table_name: string; column_name: string; data_type: string }>(
      `SELECT c.table_schema, c.table_name, c.column_name, c.data_type
         FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE t.table_type IN ('BASE TABLE', 'VIEW') AND NOT (c.table_schema = ANY($1)) AND ($2::text[] IS NULL OR c.table_schema = ANY($2))
        ORDER BY c.table_schema, c.table_name, c.ordinal_position`, [SYSTEM_SCHEMAS, schemas]);
    const keys = await client.query<{ table_schema: string; table_name: string; column_name: string }>(
      `SELECT k.table_schema, k.table_name, k.column_name
         FROM information_schema.table_constraints tc
         JOIN information_schema.key_column_usage k ON k.constraint_schema = tc.constraint_schema AND k.constraint_name = tc.constraint_name
        WHERE tc.constraint_type = 'PRIMARY KEY' ORDER BY k.ordinal_position`);
    const streams = new Map<string, DiscoveredStream>();
    for (const row of columns.rows) {
      const id = `${row.table_schema}.${row.table_name}`;
      let stream = streams.get(id);
      if (!stream) {
        stream = { name: row.table_name, namespace: row.table_schema, schema: { type: 'object', properties: {} }, supported_sync_modes: ['full_refresh', 'incremental'] };
        streams.set(id, stream);
      }
      (stream.schema.properties as Record<string, unknown>)[row.column_name] = propertyOf(row.data_type);
    }
    for (const key of keys.rows) {
      const stream = streams.get(`${key.table_schema}.${key.table_name}`);
      if (stream) (stream.source_defined_primary_key ??= []).push(key.column_name);
    }
    return [...streams.values()];
  } finally {
    await client.end().catch(() => {});
  }
}

const relationOf = (stream: StreamRead) => (stream.namespace === null ? quoteIdent(stream.name) : `${quoteIdent(stream.namespace)}.${quoteIdent(stream.name)}`);

/** The lake types' names in PostgreSQL (the lakehouse's LAKE_TYPES). */
const PG_TYPE: Record<LakeType, string> = {
  text: 'text', bigint: 'bigint', double: 'double precision', numeric: 'numeric', boolean: 'boolean',
  timestamptz: 'timestamptz', date: 'date', uuid: 'uuid', jsonb: 'jsonb',
};

/**
 * The upstream types whose cast to a lake type gives exactly the value their
 * text output gives when the lake parses it (not real → double: the cast
 * widens the binary value, the text is the short decimal; not char(n): its
 * text keeps the padding the cast trims; not domains, arrays or enums).
 */
const BINARY_SAFE: Record<LakeType, string[]> = {
  bigint: ['smallint', 'integer', 'bigint'],
  numeric: ['smallint', 'integer', 'bigint', 'numeric'],
  double: ['double precision'],
  text: ['text', 'character varying'],
  boolean: ['boolean'],
  timestamptz: ['timestamp with time zone', 'timestamp without time zone'],
  date: ['date'],
  uuid: ['uuid'],
  jsonb: ['jsonb', 'json'],
};

/** Whether every column of the stream can be read as binary COPY (its upstream type is binary-safe for its lake type). */
async function binarySafe(client: pg.Client, stream: StreamRead): Promise<boolean> {
  const { rows } = await client.query<{ name: string; type: string }>(
    `SELECT attname::text AS name, format_type(atttypid, NULL) AS type FROM pg_attribute
      WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped`, [relationOf(stream)]);
  const upstream = new Map(rows.map((row) => [row.name, row.type]));
  return stream.columns.every((column) => BINARY_SAFE[column.type].includes(upstream.get(column.name) ?? ''));
}

/**
 * The SELECT of one stream's columns, filtered by the cursor: for binary
 * output each cast to its lake type, for text only timestamps (to carry
 * their zone).
 */
function selectOf(client: pg.Client, stream: StreamRead, binary: boolean): string {
  const expressions = stream.columns.map((c) => (binary || c.type === 'timestamptz' ? `${quoteIdent(c.name)}::${PG_TYPE[c.type]}` : quoteIdent(c.name)));
  let select = `SELECT ${expressions.join(', ')} FROM ${relationOf(stream)}`;
  if (stream.syncMode === 'incremental' && stream.cursorField && stream.cursor !== null) {
    select += ` WHERE ${quoteIdent(stream.cursorField)} ${stream.inclusiveCursor ? '>=' : '>'} ${client.escapeLiteral(stream.cursor)}`;
  }
  return select;
}

/**
 * Whether the upstream relation has a primary key on exactly the stream's key
 * columns: then one snapshot read has no duplicate keys and the lake skips
 * deduplicating the batch (most of a big full refresh's cost).
 */
async function enforcesKey(client: pg.Client, stream: StreamRead): Promise<boolean> {
  if (stream.primaryKey.length === 0) return false;
  const relation = relationOf(stream);
  const { rows } = await client.query<{ columns: string[] }>(
    `SELECT array_agg(a.attname::text ORDER BY a.attname) AS columns
       FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
      WHERE i.indrelid = to_regclass($1) AND i.indisprimary`, [relation]);
  const declared = rows[0]?.columns ?? [];
  return declared.length === stream.primaryKey.length && [...stream.primaryKey].sort().every((key, index) => key === declared[index]);
}

export const postgresPattern: SourcePattern = {
  id: 'postgres',
  name: 'PostgreSQL',
  description: 'Tables and views of another PostgreSQL database (read with COPY)',
  configSchema,
  discover,
  async read(context, stream) {
    const client = await connect(context);
    try {
      // One snapshot of the upstream for the whole read.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const uniqueKeys = await enforcesKey(client, stream);
      const binary = await binarySafe(client, stream);
      const copy = client.query(copyTo(`COPY (${selectOf(client, stream, binary)}) TO STDOUT${binary ? ' (FORMAT binary)' : ''}`));
      const properties = stream.columns.map((c) => c.name);
      return {
        source: binary
          ? { kind: 'copy', properties, stream: copy, format: 'binary', types: stream.columns.map((c) => c.type) }
          : { kind: 'copy', properties, stream: copy },
        uniqueKeys,
        close: () => client.end().catch(() => {}),
      };
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
  },
};
