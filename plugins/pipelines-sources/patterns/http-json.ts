// The `http_json` pattern: a paginated JSON API. Each page's records are at
// `records_path` (a dot path; the body itself when empty); pagination by page
// number, by a cursor found in the body, or by a next URL found in the body.
// One stream (namespace null) whose schema is inferred from the first page.
// Incremental reads filter records past the cursor client-side. Every call
// goes through the guarded fetch (private addresses only when allowed).
import { badRequest, readCapped } from 'agent-platform/sdk';
import { atPath, inferSchema, pastCursor } from './infer.ts';
import type { JsonSchemaObject, PatternContext, SourcePattern } from './types.ts';

interface HttpJsonConfig {
  url: string;
  stream_name: string;
  records_path?: string;
  api_key?: string;
  api_key_header: string;
  pagination: { type: 'none' | 'page' | 'cursor' | 'next_url'; param?: string; path?: string; start?: number };
  max_pages: number;
}

const MAX_BODY = 50 * 1024 * 1024;

const configSchema: JsonSchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2000 },
    stream_name: { type: 'string', pattern: '^[A-Za-z0-9_]{1,63}$', default: 'records' },
    records_path: { type: 'string', maxLength: 200, description: 'Dot path of the records array in a page (empty: the body is the array)' },
    api_key: { type: 'string', maxLength: 4000, credential: true, description: 'Write-only: sent as the api_key_header value' },
    api_key_header: { type: 'string', pattern: '^[A-Za-z0-9-]{1,64}$', default: 'Authorization' },
    pagination: {
      type: 'object', additionalProperties: false, default: { type: 'none' },
      properties: {
        type: { enum: ['none', 'page', 'cursor', 'next_url'], default: 'none' },
        param: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'Query parameter of the page number or cursor' },
        path: { type: 'string', maxLength: 200, description: 'Dot path of the next cursor or next URL in the body' },
        start: { type: 'integer', minimum: 0, default: 1, description: 'First page number' },
      },
    },
    max_pages: { type: 'integer', minimum: 1, maximum: 100_000, default: 1000 },
  },
};

async function getJson(context: PatternContext, url: string): Promise<unknown> {
  const config = context.config as unknown as HttpJsonConfig;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (config.api_key) headers[config.api_key_header] = config.api_key;
  const response = await context.fetch(url, { headers, signal: context.signal, redirect: 'error' });
  if (!response.ok) throw badRequest(`GET ${new URL(url).origin}${new URL(url).pathname} answered ${response.status}`, 'SOURCE_HTTP_ERROR');
  const text = Buffer.from(await readCapped(response.body ?? undefined, MAX_BODY)).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('The API answered something that is not JSON', 'SOURCE_HTTP_ERROR');
  }
}

/** The pages' records, page after page. */
async function* pages(context: PatternContext): AsyncGenerator<Record<string, unknown>[]> {
  const config = context.config as unknown as HttpJsonConfig;
  const paging = config.pagination;
  let url: string | null = config.url;
  let page = paging.start ?? 1;
  for (let count = 0; url && count < config.max_pages; count++) {
    const target: URL = new URL(url);
    if (paging.type === 'page') target.searchParams.set(paging.param ?? 'page', String(page++));
    const body = await getJson(context, target.toString());
    const records = atPath(body, config.records_path);
    if (!Array.isArray(records)) throw badRequest(`No records array at "${config.records_path ?? ''}" in the response`, 'SOURCE_RECORDS_PATH');
    const objects = records.filter((r): r is Record<string, unknown> => !!r && typeof r === 'object' && !Array.isArray(r));
    yield objects;
    if (paging.type === 'none' || (paging.type === 'page' && objects.length === 0)) break;
    if (paging.type === 'cursor') {
      const next = atPath(body, paging.path);
      if (next === null || next === undefined || next === '') break;
      const following = new URL(config.url);
      following.searchParams.set(paging.param ?? 'cursor', String(next));
      url = following.toString();
    } else if (paging.type === 'next_url') {
      const next = atPath(body, paging.path);
      url = typeof next === 'string' && next ? new URL(next, target).toString() : null;
    } else {
      url = config.url;
    }
  }
}

export const httpJsonPattern: SourcePattern = {
  id: 'http_json',
  name: 'HTTP JSON API',
  description: 'A paginated JSON API (records at a path; page, cursor or next-URL pagination)',
  configSchema,
  async discover(context) {
    const config = context.config as unknown as HttpJsonConfig;
    const first = await pages(context).next();
    const sample = first.done ? [] : first.value.slice(0, 200);
    return [{ name: config.stream_name, namespace: null, schema: inferSchema(sample), supported_sync_modes: ['full_refresh', 'incremental'] }];
  },
  async read(context, stream) {
    const filter = stream.syncMode === 'incremental' && stream.cursorField;
    async function* batches() {
      for await (const records of pages(context)) {
        yield filter ? records.filter((r) => pastCursor(r[stream.cursorField!], stream.cursor, stream.inclusiveCursor)) : records;
      }
    }
    return { source: { kind: 'records', batches: batches() }, close: async () => {} };
  },
};
