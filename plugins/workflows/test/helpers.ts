// Shared by the workflows tests: a listening platform (so the job workers run)
// with the workflows manifest, definitions and executions through REST, the
// events recorded by the probe plugin's event backend, and polling.
import path from 'node:path';
import { sql } from 'kysely';
import { ROOT_DIR } from '../../../core/paths.ts';
import { startTestPlatform, until, type Tap, type TestPlatform, type TestPlatformOptions } from 'agent-platform/sdk/testing';

export const MANIFEST = path.join(ROOT_DIR, 'test', 'fixtures', 'manifests', 'workflows.yaml');
export const STRICT_MANIFEST = path.join(ROOT_DIR, 'plugins', 'workflows', 'test', 'fixtures', 'workflows-strict.yaml');

export function startWorkflowsPlatform(t: Tap, options: TestPlatformOptions & { manifest?: string } = {}): Promise<TestPlatform> {
  return startTestPlatform(t, { listen: true, ...options, env: { PLATFORM_MANIFEST: options.manifest ?? MANIFEST, ...options.env } });
}

export { until };

export async function defineWorkflow(tp: TestPlatform, token: string, body: Record<string, unknown>) {
  const created = await tp.request({ method: 'POST', url: '/api/admin/workflows', token, payload: body });
  if (created.status !== 201) throw new Error(`workflow ${String(body.name)}: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

export async function execute(tp: TestPlatform, token: string, name: string, inputs: Record<string, unknown> = {}): Promise<string> {
  const started = await tp.request({ method: 'POST', url: `/api/admin/workflows/${name}/execute`, token, payload: { inputs } });
  if (started.status !== 202) throw new Error(`execute ${name}: ${started.status} ${JSON.stringify(started.body)}`);
  return started.body.execution_id;
}

export async function getExecution(tp: TestPlatform, token: string, id: string) {
  const found = await tp.request({ url: `/api/admin/executions/${id}`, token });
  if (found.status !== 200) throw new Error(`execution ${id}: ${found.status} ${JSON.stringify(found.body)}`);
  return found.body;
}

/** Polls until the execution reaches one of `statuses`; returns it. */
export function settled(tp: TestPlatform, token: string, id: string, statuses: string[] = ['completed', 'failed', 'cancelled']) {
  return until(async () => {
    const execution = await getExecution(tp, token, id);
    return statuses.includes(execution.status) ? execution : undefined;
  }, `execution ${id} to be ${statuses.join(' or ')}`);
}

export interface RecordedEvent {
  tenant_id: string;
  id: string;
  type: string;
  source: string;
  data: Record<string, any>;
}

/** Events the probe backend recorded (committed ones only), oldest first. */
export async function recordedEvents(tp: TestPlatform, filter: { tenant?: string; type?: string } = {}): Promise<RecordedEvent[]> {
  const { rows } = await sql<RecordedEvent>`
    SELECT tenant_id, id, type, source, data FROM probe_events
    WHERE (${filter.tenant ?? null}::text IS NULL OR tenant_id = ${filter.tenant ?? null})
      AND (${filter.type ?? null}::text IS NULL OR type = ${filter.type ?? null})
    ORDER BY seq`.execute(tp.platform.core.db);
  return rows;
}

/** Calls of the probe functions under a label. */
export async function probeCalls(tp: TestPlatform, label: string): Promise<{ execution_id: string | null }[]> {
  const { rows } = await sql<{ execution_id: string | null }>`
    SELECT execution_id FROM probe_calls WHERE label = ${label} ORDER BY seq`.execute(tp.platform.core.db);
  return rows;
}

export const waitStep = (id: string, extra: Record<string, unknown> = {}) => ({
  id, type: 'WAIT', handler: 'temporal:wait_for_event', ...extra,
});

/** A member of the tenant without the admin role, and its token. */
export async function memberOf(tp: TestPlatform, alias: string, sub = `${alias}-member`) {
  const user = await tp.request({
    method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations: [alias], roles: [] },
  });
  if (user.status !== 201) throw new Error(`user ${sub}: ${JSON.stringify(user.body)}`);
  const token = await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken });
  return token.body.access_token as string;
}
