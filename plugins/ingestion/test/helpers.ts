// Shared by the ingestion tests: a running platform (workers on) with the
// ingestion manifest, a tenant admin, multipart uploads through the real
// route, and polling for states with generous deadlines.
import { randomBytes } from 'node:crypto';
import { startTestPlatform, tenantWithAdmin, until, type Tap, type TestPlatform, type TestPlatformOptions } from 'agent-platform/sdk/testing';

export const MANIFEST = 'test/fixtures/manifests/ingestion.yaml';

export async function ingestionFixture(t: Tap, options: TestPlatformOptions & { alias?: string } = {}) {
  const { alias = 'acme', ...platformOptions } = options;
  const tp = await startTestPlatform(t, { ...platformOptions, env: { PLATFORM_MANIFEST: MANIFEST, ...platformOptions.env } });
  // With listen, startTestPlatform has started it (workers included) already.
  if (!platformOptions.listen) await tp.platform.start();
  const { token } = await tenantWithAdmin(tp, alias);
  return { tp, token, tenant: alias };
}

export interface Part {
  name: string;
  filename?: string;
  content: Buffer | string;
  contentType?: string;
}

/** A multipart/form-data body, byte for byte. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename !== undefined ? `\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function createCollection(tp: TestPlatform, token: string, name: string, parentId?: number): Promise<number> {
  const created = await tp.request({ method: 'POST', url: '/api/admin/collections', token, payload: { name, ...(parentId ? { parent_id: parentId } : {}) } });
  if (created.status !== 201) throw new Error(`collection ${name}: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.collection_id;
}

export function upload(tp: TestPlatform, token: string, collectionId: number, filename: string, content: Buffer | string, extra: Part[] = []) {
  const { payload, headers } = multipart([{ name: 'file', filename, content }, ...extra]);
  return tp.request({ method: 'POST', url: `/api/admin/collections/${collectionId}/documents`, token, payload, headers });
}

/** Uploads and expects 202; returns the document id. */
export async function uploaded(tp: TestPlatform, token: string, collectionId: number, filename: string, content: Buffer | string): Promise<string> {
  const answer = await upload(tp, token, collectionId, filename, content);
  if (answer.status !== 202) throw new Error(`upload ${filename}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.document_id;
}

export async function statusOf(tp: TestPlatform, token: string, documentId: string) {
  const answer = await tp.request({ url: `/api/admin/documents/${documentId}/ingestion-status`, token });
  if (answer.status !== 200) throw new Error(`status ${documentId}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Waits until the document reaches one of the statuses (generous deadline: parsers and OCR are slow on a loaded machine). */
export function waitFor(tp: TestPlatform, token: string, documentId: string, statuses: string[] = ['ready', 'error'], timeoutMs = 120_000) {
  return until(async () => {
    const status = await statusOf(tp, token, documentId);
    return statuses.includes(status.ingestion_status) ? status : undefined;
  }, `document ${documentId} in ${statuses.join('/')}`, timeoutMs);
}

export async function ingest(tp: TestPlatform, token: string, collectionId: number, filename: string, content: Buffer | string, timeoutMs?: number) {
  const id = await uploaded(tp, token, collectionId, filename, content);
  const status = await waitFor(tp, token, id, ['ready', 'error'], timeoutMs);
  return { id, status };
}

export async function chunksOf(tp: TestPlatform, token: string, documentId: string, revision?: number) {
  const answer = await tp.request({ url: `/api/admin/documents/${documentId}/chunks?limit=500${revision ? `&revision=${revision}` : ''}`, token });
  if (answer.status !== 200) throw new Error(`chunks: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function search(tp: TestPlatform, token: string, query: string, extra = '') {
  const answer = await tp.request({ url: `/api/admin/search?query=${encodeURIComponent(query)}${extra}`, token });
  if (answer.status !== 200) throw new Error(`search: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function callFunction(tp: TestPlatform, token: string, name: string, args: Record<string, unknown>) {
  return tp.request({ method: 'POST', url: `/api/admin/functions/${name}/call`, token, payload: { arguments: args } });
}

export async function eventsOf(tp: TestPlatform, token: string, type = 'document.*') {
  const answer = await tp.request({ url: `/api/admin/triggers/events/recent?type=${encodeURIComponent(type)}&limit=200`, token });
  if (answer.status !== 200) throw new Error(`events: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.items as { type: string; data: Record<string, any> }[];
}
