// Shared by the webhooks tests: a platform with the webhooks manifest, signed
// requests built with the plugin's own signing code, and a workflow that
// waits at a WAIT step, started through the workflows plugin's REST API.
import { randomUUID } from 'node:crypto';
import { startTestPlatform, until, type Tap, type TestPlatform, type TestPlatformOptions } from 'agent-platform/sdk/testing';
import { signBody } from '../signing/signing.ts';

export const MANIFEST = 'plugins/webhooks/test/fixtures/webhooks.yaml';

export function startWebhooksPlatform(t: Tap, options: TestPlatformOptions = {}): Promise<TestPlatform> {
  return startTestPlatform(t, { ...options, env: { PLATFORM_MANIFEST: MANIFEST, WEBHOOK_SECRET: '', ...options.env } });
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface SignedOptions {
  secret: string;
  eventType?: string;
  body?: unknown;
  /** Raw bytes to send instead of JSON.stringify(body). */
  raw?: string | Buffer;
  /** Signature header; computed over the bytes sent when absent. null: left out. */
  signature?: string | null;
  timestamp?: number | string | null;
  id?: string | null;
  headers?: Record<string, string>;
  /** Send `body` exactly: by default a body without event_data gets a unique one, so that two requests never share a signature (a replay). */
  exact?: boolean;
}

/** `body` with a unique event_data unless it has one (see SignedOptions.exact). */
function distinct(body: unknown, exact?: boolean): unknown {
  if (exact || !body || typeof body !== 'object' || Array.isArray(body) || 'event_data' in body) return body;
  return { ...body, event_data: { request: randomUUID() } };
}

/** POSTs a signed-resume request; every header can be replaced or left out. */
export function postSigned(tp: TestPlatform, options: SignedOptions) {
  const payload = options.raw ?? JSON.stringify(distinct(options.body ?? {}, options.exact));
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  const signature = options.signature === undefined ? signBody(options.secret, payload) : options.signature;
  if (signature !== null) headers['x-webhook-signature'] = signature;
  const timestamp = options.timestamp === undefined ? nowSeconds() : options.timestamp;
  if (timestamp !== null) headers['x-webhook-timestamp'] = String(timestamp);
  const id = options.id === undefined ? randomUUID() : options.id;
  if (id !== null) headers['x-webhook-id'] = id;
  return tp.request({ method: 'POST', url: `/api/webhooks/${options.eventType ?? 'approval.granted'}`, headers, payload });
}

/** The tenant's signing secret, created through the admin API. */
export async function signingSecretOf(tp: TestPlatform, token: string): Promise<string> {
  const created = await tp.request({ method: 'POST', url: '/api/admin/webhooks/signing-secret', token });
  if (created.status !== 201 && created.status !== 200) throw new Error(`signing secret: ${JSON.stringify(created.body)}`);
  return created.body.secret as string;
}

/** A workflow that waits for `eventType` (long timeout), then records the wait result under `approval`. */
export async function waitingExecution(tp: TestPlatform, token: string, options: { name?: string; eventType?: string; filter?: Record<string, unknown> } = {}) {
  const name = options.name ?? `wait-${randomUUID().slice(0, 8)}`;
  const definition = await tp.request({
    method: 'POST', url: '/api/admin/workflows', token,
    payload: {
      name,
      description: 'waits for a signal',
      steps: [
        {
          id: 'wait', type: 'WAIT', handler: 'temporal:wait_for_event',
          event_type: options.eventType ?? 'approval.granted', event_filter: options.filter ?? {},
          timeout_seconds: 3600, output_key: 'approval',
        },
      ],
    },
  });
  if (definition.status !== 201 && definition.status !== 409) throw new Error(`workflow ${name}: ${JSON.stringify(definition.body)}`);
  const started = await tp.request({ method: 'POST', url: `/api/admin/workflows/${name}/execute`, token, payload: { inputs: {} } });
  if (started.status >= 300) throw new Error(`execute ${name}: ${JSON.stringify(started.body)}`);
  const executionId = started.body.execution_id as string;
  await until(async () => (await execution(tp, token, executionId)).status === 'waiting', `execution ${executionId} waiting`);
  return executionId;
}

export async function execution(tp: TestPlatform, token: string, id: string) {
  const found = await tp.request({ url: `/api/admin/executions/${id}`, token });
  if (found.status !== 200) throw new Error(`execution ${id}: ${JSON.stringify(found.body)}`);
  return found.body;
}

export { until };
