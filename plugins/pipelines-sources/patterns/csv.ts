// The `csv` pattern: a CSV (header row first) or JSON Lines file at a URL or
// uploaded (POST /api/v1/sources/files), parsed as it arrives, in batches. One stream (namespace null)
// whose schema is inferred from the first rows (CSV text that reads as an
// integer, a number, a boolean or an ISO date is typed so). Incremental reads
// keep the rows past the cursor. Fetched through the guarded fetch.
import { badRequest, notFound } from 'agent-platform/sdk';
import { createCsvParser } from './csv-parser.ts';
import { inferSchema, pastCursor } from './infer.ts';
import type { JsonSchemaObject, PatternContext, SourcePattern } from './types.ts';

interface CsvConfig {
  url?: string;
  file_id?: string;
  format: 'csv' | 'jsonl';
  delimiter: string;
  stream_name: string;
  max_bytes: number;
}

const BATCH = 5000;
const CHUNK_BYTES = 64 * 1024;

const configSchema: JsonSchemaObject = {
  type: 'object',
  additionalProperties: false,
  // Exactly one of the two: where the file is.
  oneOf: [{ required: ['url'] }, { required: ['file_id'] }],
  properties: {
    url: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2000 },
    file_id: { type: 'string', format: 'uuid', description: 'An uploaded file (POST /api/v1/sources/files) instead of a url' },
    format: { enum: ['csv', 'jsonl'], default: 'csv' },
    delimiter: { type: 'string', minLength: 1, maxLength: 1, default: ',' },
    stream_name: { type: 'string', pattern: '^[A-Za-z0-9_]{1,63}$', default: 'rows' },
    max_bytes: { type: 'integer', minimum: 1, maximum: 10 * 1024 ** 3, default: 1024 ** 3 },
  },
};

/** CSV text typed for inference only (the lake coerces the text itself when it lands). */
function typedSample(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => {
    if (typeof value !== 'string') return [key, value];
    if (value === '') return [key, null];
    if (/^-?\d{1,15}$/.test(value)) return [key, Number(value)];
    if (/^-?\d+\.\d+$/.test(value)) return [key, Number(value)];
    if (value === 'true' || value === 'false') return [key, value === 'true'];
    return [key, value];
  }));
}

/** The file's bytes as they arrive: the uploaded file's, or the URL's body. */
async function chunks(context: PatternContext, config: CsvConfig): Promise<AsyncIterable<Uint8Array>> {
  if (config.file_id) {
    const content = await context.readFile(config.file_id);
    if (!content) throw notFound(`No uploaded file "${config.file_id}"`, 'SOURCE_FILE_NOT_FOUND');
    return (async function* () {
      for (let at = 0; at < content.byteLength; at += CHUNK_BYTES) yield content.subarray(at, at + CHUNK_BYTES);
    })();
  }
  const url = new URL(config.url!);
  const response = await context.fetch(url.href, { signal: context.signal, redirect: 'error' });
  if (!response.ok || !response.body) throw badRequest(`GET ${url.origin}${url.pathname} answered ${response.status}`, 'SOURCE_HTTP_ERROR');
  return response.body as unknown as AsyncIterable<Uint8Array>;
}

/** The file's records, batch after batch, as they arrive. */
async function* records(context: PatternContext): AsyncGenerator<Record<string, unknown>[]> {
  const config = context.config as unknown as CsvConfig;
  const body = await chunks(context, config);
  const decoder = new TextDecoder();
  const csv = createCsvParser(config.delimiter);
  let header: string[] | undefined;
  let pending = '';
  let size = 0;
  let batch: Record<string, unknown>[] = [];
  const take = (rows: string[][]) => {
    for (const fields of rows) {
      if (!header) header = fields.map((name) => name.trim());
      else batch.push(Object.fromEntries(header.map((name, i) => [name, fields[i] === '' || fields[i] === undefined ? null : fields[i]])));
    }
  };
  const takeLines = (text: string) => {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const parsed = JSON.parse(line);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) batch.push(parsed);
      } catch {
        throw badRequest('A line of the JSON Lines file is not JSON', 'SOURCE_FILE_INVALID');
      }
    }
  };
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > config.max_bytes) throw badRequest(`The file is larger than max_bytes (${config.max_bytes})`, 'SOURCE_FILE_TOO_LARGE');
    const text = decoder.decode(chunk, { stream: true });
    if (config.format === 'csv') take(csv.push(text));
    else {
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      takeLines(lines.join('\n'));
    }
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (config.format === 'csv') take(csv.push(decoder.decode()).concat(csv.end()));
  else takeLines(pending + decoder.decode());
  if (batch.length) yield batch;
}

export const csvPattern: SourcePattern = {
  id: 'csv',
  name: 'CSV or JSON Lines file',
  description: 'A CSV (header row first) or JSON Lines file at a URL or uploaded (file_id)',
  configSchema,
  async discover(context) {
    const config = context.config as unknown as CsvConfig;
    const sample: Record<string, unknown>[] = [];
    for await (const rows of records(context)) {
      sample.push(...rows.slice(0, 500 - sample.length));
      if (sample.length >= 500) break;
    }
    return [{ name: config.stream_name, namespace: null, schema: inferSchema(sample.map(typedSample)), supported_sync_modes: ['full_refresh', 'incremental'] }];
  },
  async read(context, stream) {
    const filter = stream.syncMode === 'incremental' && stream.cursorField;
    async function* batches() {
      for await (const rows of records(context)) {
        yield filter ? rows.filter((r) => pastCursor(typedSample({ v: r[stream.cursorField!] }).v, stream.cursor, stream.inclusiveCursor)) : rows;
      }
    }
    return { source: { kind: 'records', batches: batches() }, close: async () => {} };
  },
};
