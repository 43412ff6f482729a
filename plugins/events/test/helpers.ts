// Shared by the events tests: a platform with the events manifest (tenancy,
// workflows, events), a tenant admin, a workflow for triggers to start, and
// small polling helpers. Everything goes through the real API, real workers
// and a real database.
import pg from 'pg';
import { CloudEvent, HTTP } from 'cloudevents';
import { startTestPlatform, until, tenantWithAdmin, type Tap, type TestPlatform, type TestPlatformOptions } from 'agent-platform/sdk/testing';

export const MANIFEST = 'test/fixtures/manifests/events.yaml';

export function startEventsPlatform(t: Tap, options: TestPlatformOptions = {}): Promise<TestPlatform> {
  return startTestPlatform(t, { ...options, env: { PLATFORM_MANIFEST: MANIFEST, ...options.env } });
}

/**
 * A running platform (workers on) with one tenant and its admin token, and
 * (unless `workflow: false`) a workflow named `record`, whose creation emits
 * definition.created: the tenant's stream then starts at seq 2.
 */
export async function eventsFixture(t: Tap, options: TestPlatformOptions & { alias?: string; workflow?: boolean } = {}) {
  const { alias = 'acme', workflow = true, ...platformOptions } = options;
  const tp = await startEventsPlatform(t, platformOptions);
  await tp.platform.start();
  const { token } = await tenantWithAdmin(tp, alias);
  if (workflow) await createWorkflow(tp, token, 'record');
  return { tp, token, tenant: alias };
}

/** A one-step workflow: it logs, so an execution of it completes at once. */
export async function createWorkflow(tp: TestPlatform, token: string, name: string) {
  const created = await tp.request({
    method: 'POST', url: '/api/admin/workflows', token,
    payload: { name, description: 'records its inputs', steps: [{ id: 'log', type: 'ACTION', handler: 'log', arguments: { message: 'started' } }] },
  });
  if (created.status !== 201) throw new Error(`workflow ${name}: ${JSON.stringify(created.body)}`);
}

export async function createTrigger(tp: TestPlatform, token: string, payload: Record<string, unknown>) {
  const created = await tp.request({ method: 'POST', url: '/api/admin/triggers', token, payload });
  if (created.status !== 201) throw new Error(`trigger: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

export async function emit(tp: TestPlatform, token: string, type: string, data: Record<string, unknown> = {}, source = '/tests') {
  const emitted = await tp.request({ method: 'POST', url: '/api/admin/triggers/events/emit', token, payload: { type, source, data } });
  if (emitted.status !== 201) throw new Error(`emit ${type}: ${emitted.status} ${JSON.stringify(emitted.body)}`);
  return emitted.body as { event: Record<string, unknown>; seq: number; warnings: string[] };
}

/** Executions of a workflow (newest first), as the workflows API lists them. */
export async function executionsOf(tp: TestPlatform, token: string, workflow: string) {
  const listed = await tp.request({ url: `/api/admin/executions?workflow=${workflow}&limit=500`, token });
  if (listed.status !== 200) throw new Error(`executions: ${JSON.stringify(listed.body)}`);
  return listed.body.items as { execution_id: string; status: string; origin: { type: string; id?: string } }[];
}

export async function execution(tp: TestPlatform, token: string, id: string) {
  const found = await tp.request({ url: `/api/admin/executions/${id}`, token });
  if (found.status !== 200) throw new Error(`execution ${id}: ${JSON.stringify(found.body)}`);
  return found.body;
}

/** The trigger's dispatch records, newest first (through GraphQL). */
export async function dispatchesOf(tp: TestPlatform, token: string, trigger: string) {
  const result = await tp.request({
    method: 'POST', url: '/graphql', token,
    payload: { query: `{ trigger(name: "${trigger}") { recentDispatches(limit: 100) { origin status eventId executionId dedupKey error } } }` },
  });
  if (result.body.errors) throw new Error(JSON.stringify(result.body.errors));
  return result.body.data.trigger.recentDispatches as { origin: string; status: string; eventId: string | null; executionId: string | null; dedupKey: string | null; error: string | null }[];
}

/** Waits until the tenant's dispatcher has passed every event emitted so far. */
export async function dispatched(tp: TestPlatform, token: string, timeoutMs = 15_000) {
  await until(async () => {
    // Numbers are not the stream's order: every recent event, not the newest alone.
    const recent = await tp.request({ url: '/api/admin/triggers/events/recent?limit=500', token });
    return recent.body.items.every((item: { dispatched: boolean }) => item.dispatched);
  }, 'the dispatcher to catch up', timeoutMs);
}

export { until };

/** Parses an event the way a CloudEvents consumer would (structured JSON mode); throws if it is not valid. */
export function asCloudEvent(event: unknown) {
  const parsed = HTTP.toEvent({ headers: { 'content-type': 'application/cloudevents+json' }, body: JSON.stringify(event) }) as CloudEvent<unknown>;
  parsed.validate();
  return parsed;
}

/** A superuser connection to the test database (bypasses row-level security: for assertions and driving the clock). */
export async function rawClient(t: Tap, databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  t.teardown(() => client.end());
  return client;
}
