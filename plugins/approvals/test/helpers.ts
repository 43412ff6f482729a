// Shared by the approvals tests: a listening platform (tenancy, workflows,
// events, chat, approvals) on a fresh database, people of a tenant with roles,
// cases through REST, the tenant's events, and driving a case's expiry timer
// by moving its keyed job's run_at (never by sleeping).
import type pg from 'pg';
import { startTestPlatform, tenantWithAdmin, until, type Tap, type TestPlatform, type TestPlatformOptions } from 'agent-platform/sdk/testing';
import { rawClient } from '../../events/test/helpers.ts';

export const MANIFEST = 'test/fixtures/manifests/approvals.yaml';
export { until, rawClient };

export async function approvalsFixture(t: Tap, options: TestPlatformOptions & { manifest?: string } = {}) {
  const { manifest = MANIFEST, ...rest } = options;
  // listen: the server starts (its job workers run) on a loopback port.
  const tp = await startTestPlatform(t, { listen: true, ...rest, env: { PLATFORM_MANIFEST: manifest, ...rest.env } });
  const admin = await tenantWithAdmin(tp, 'acme');
  return { tp, admin: admin.token, adminSub: admin.sub };
}

/** A person of `tenant` with these roles, and their token. */
export async function person(tp: TestPlatform, tenant: string, sub: string, roles: string[] = []): Promise<string> {
  const user = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations: [tenant], roles } });
  if (user.status !== 201) throw new Error(`user ${sub}: ${JSON.stringify(user.body)}`);
  const token = await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken });
  return token.body.access_token as string;
}

export async function openCase(tp: TestPlatform, token: string, payload: Record<string, unknown>) {
  const created = await tp.request({ method: 'POST', url: '/api/approvals', token, payload });
  if (created.status !== 201) throw new Error(`case: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

export const decide = (tp: TestPlatform, token: string, id: string, decision: 'approve' | 'reject', comment?: string) =>
  tp.request({ method: 'POST', url: `/api/approvals/${id}/decision`, token, payload: { decision, ...(comment ? { comment } : {}) } });

/** Events of the tenant's stream of one type. */
export async function eventsOf(tp: TestPlatform, token: string, type: string) {
  const listed = await tp.request({ url: `/api/admin/triggers/events/recent?limit=500&type=${type}`, token });
  if (listed.status !== 200) throw new Error(`events: ${JSON.stringify(listed.body)}`);
  return (listed.body.items as { type: string; data: Record<string, any> }[]).filter((e) => e.type === type);
}

/** Drives a case's clock: its expiry job runs now. */
export async function expireNow(db: pg.Client, caseId: string): Promise<void> {
  const { rowCount } = await db.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [`approvals.expire:${caseId}`]);
  if (rowCount !== 1) throw new Error(`no expiry job for case ${caseId}`);
}

export async function caseOf(tp: TestPlatform, token: string, id: string) {
  const found = await tp.request({ url: `/api/approvals/${id}`, token });
  if (found.status !== 200) throw new Error(`case ${id}: ${found.status} ${JSON.stringify(found.body)}`);
  return found.body;
}

export const settledCase = (tp: TestPlatform, token: string, id: string) =>
  until(async () => {
    const found = await caseOf(tp, token, id);
    return found.status !== 'pending' ? found : undefined;
  }, `case ${id} to settle`);
