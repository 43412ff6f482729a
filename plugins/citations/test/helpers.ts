// Shared by the citations tests: a platform with the citations manifest
// (tenancy, workflows, events, the real ingestion plugin, citations), tenant
// admins, documents uploaded through the ingestion REST API and polled until
// ready, API keys, and showing chunks to an execution context through the
// real read_document function (whose result the provenance observer records).
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { startTestPlatform, tenantWithAdmin, until, type Tap, type TestPlatform, type TestPlatformOptions } from 'agent-platform/sdk/testing';

export const MANIFEST = 'test/fixtures/manifests/citations.yaml';

export async function citationsFixture(t: Tap, options: TestPlatformOptions & { tenants?: string[] } = {}) {
  const { tenants = ['acme'], ...platformOptions } = options;
  const tp = await startTestPlatform(t, { ...platformOptions, env: { PLATFORM_MANIFEST: MANIFEST, ...platformOptions.env } });
  // With listen, startTestPlatform has started it (workers included) already.
  if (!platformOptions.listen) await tp.platform.start();
  const admins = [];
  for (const alias of tenants) admins.push(await tenantWithAdmin(tp, alias));
  return { tp, admins };
}

export interface SeededChunk {
  chunk_id: string;
  revision_id: string;
  document_id: string;
  collection_id: number;
  text: string;
}

/** Which document each seeded chunk belongs to (the helpers act as the operator, with the super-admin token). */
const documentOf = new Map<string, string>();

const collections = new WeakMap<TestPlatform, Map<string, number>>();

async function collectionId(tp: TestPlatform, tenant: string, name: string): Promise<number> {
  let known = collections.get(tp);
  if (!known) collections.set(tp, (known = new Map()));
  const cached = known.get(`${tenant}/${name}`);
  if (cached !== undefined) return cached;
  const created = await tp.request({ method: 'POST', url: '/api/admin/collections', token: tp.adminToken, tenant, payload: { name } });
  if (created.status !== 201) throw new Error(`collection ${name}: ${created.status} ${JSON.stringify(created.body)}`);
  known.set(`${tenant}/${name}`, created.body.collection_id);
  return created.body.collection_id;
}

async function waitReady(tp: TestPlatform, tenant: string, documentId: string, notRevision?: string) {
  return until(async () => {
    const status = await tp.request({ url: `/api/admin/documents/${documentId}/ingestion-status`, token: tp.adminToken, tenant });
    if (status.body.ingestion_status === 'error') throw new Error(`ingestion failed: ${JSON.stringify(status.body)}`);
    return status.body.ingestion_status === 'ready' && status.body.revision_id !== notRevision && status.body;
  }, `document ${documentId} to be ready`, 60_000);
}

async function chunksOf(tp: TestPlatform, tenant: string, documentId: string, collection: number): Promise<SeededChunk[]> {
  const listed = await tp.request({ url: `/api/admin/documents/${documentId}/chunks`, token: tp.adminToken, tenant });
  if (listed.status !== 200) throw new Error(`chunks: ${listed.status} ${JSON.stringify(listed.body)}`);
  return listed.body.items.map((c: { chunk_id: string; revision_id: string; text: string }) => ({
    chunk_id: c.chunk_id, revision_id: c.revision_id, document_id: documentId, collection_id: collection, text: c.text,
  }));
}

/** Uploads a text file through the ingestion API and waits until it is ready; it must make exactly one chunk. */
async function uploadText(tp: TestPlatform, tenant: string, collection: number, filename: string, text: string) {
  const boundary = `----citations${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(text), Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await tp.request({
    method: 'POST', url: `/api/admin/collections/${collection}/documents`, token: tp.adminToken, tenant, payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  if (res.status !== 202) throw new Error(`upload ${filename}: ${res.status} ${JSON.stringify(res.body)}`);
  const documentId: string = res.body.document_id;
  await waitReady(tp, tenant, documentId);
  const chunks = await chunksOf(tp, tenant, documentId, collection);
  if (chunks.length !== 1 || chunks[0].text !== text) throw new Error(`${filename}: expected one chunk with the whole text, got ${JSON.stringify(chunks)}`);
  documentOf.set(chunks[0].chunk_id, documentId);
  return chunks[0];
}

/**
 * Documents through the real ingestion API: the first text is the document
 * `name`; each further text is a document of its own (`name (2)`, …), so that
 * every text is exactly one chunk. Returns the first document's ids and every chunk.
 */
export async function seedDocument(tp: TestPlatform, tenant: string, name: string, texts: string[], collection = 'docs') {
  const id = await collectionId(tp, tenant, collection);
  const chunks: SeededChunk[] = [];
  for (const [i, text] of texts.entries()) {
    chunks.push(await uploadText(tp, tenant, id, i === 0 ? name : name.replace(/(\.\w+)?$/, ` (${i + 1})$1`), text));
  }
  return { document_id: chunks[0].document_id, revision_id: chunks[0].revision_id, collection_id: id, chunks };
}

/** Reingests a document through the ingestion API (a new revision; the old one's chunks stay). */
export async function reingest(tp: TestPlatform, tenant: string, documentId: string, previousRevision: string) {
  const res = await tp.request({ method: 'POST', url: `/api/admin/documents/${documentId}/reingest`, token: tp.adminToken, tenant });
  if (res.status >= 300) throw new Error(`reingest: ${res.status} ${JSON.stringify(res.body)}`);
  return waitReady(tp, tenant, documentId, previousRevision);
}

export async function deleteDocument(tp: TestPlatform, tenant: string, documentId: string) {
  const res = await tp.request({ method: 'DELETE', url: `/api/admin/documents/${documentId}`, token: tp.adminToken, tenant });
  if (res.status >= 300) throw new Error(`delete: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * Removes a revision's chunks outright. Ingestion keeps every revision's
 * chunks for citations and has no API that removes them, so this test-only
 * DELETE is the one way to exercise "the cited chunk no longer exists".
 */
export async function purgeChunks(tp: TestPlatform, tenant: string, revisionId: string) {
  await tp.platform.core.withTenant(tenant, (trx) => sql`DELETE FROM ingestion_chunks WHERE revision_id = ${revisionId}::uuid`.execute(trx));
}

/** An API key of a new client of the tenant (created through the tenancy API). */
export async function apiKey(tp: TestPlatform, token: string, tenant: string, name = 'widget') {
  const client = await tp.request({ method: 'POST', url: '/api/admin/clients', token, tenant, payload: { name: `${name}-${randomUUID().slice(0, 8)}` } });
  if (client.status !== 201) throw new Error(`client: ${JSON.stringify(client.body)}`);
  const key = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token, tenant, payload: { name, client_id: client.body.id } });
  if (key.status !== 201) throw new Error(`api key: ${JSON.stringify(key.body)}`);
  return { key: key.body.key as string, clientId: client.body.id as number };
}

/**
 * Shows chunks to an execution context the way an agent reads them: a real
 * read_document call (the ingestion plugin's platform function) in that
 * context, for the document of each chunk; the citations observer records
 * the chunks in its result.
 */
export function showChunksFunction(tp: TestPlatform) {
  return async (tenant: string, context: { type: string; id: string }, chunkIds: string[]) => {
    for (const documentId of new Set(chunkIds.map((id) => documentOf.get(id)))) {
      if (!documentId) throw new Error('showChunks: a chunk that was not seeded by these helpers');
      await callFunction(tp, tenant, 'read_document', { document_id: documentId }, context);
    }
  };
}

/** Calls a platform function as a context would (an agent in a chat session, a workflow step). */
export function callFunction(tp: TestPlatform, tenant: string, name: string, args: Record<string, unknown>, context?: { type: string; id: string }, clientId?: number) {
  return tp.platform.core.functions.call(name, args, {
    tenantId: tenant, principal: { kind: 'super_admin', sub: 'super-admin' }, withTenant: tp.platform.core.withTenant,
    logger: tp.platform.core.logger, ...(context ? { executionContext: context } : {}), ...(clientId !== undefined ? { clientId } : {}),
  }) as Promise<Record<string, any>>;
}
