// Approval cases through REST: who may open, see,
// decide and cancel; quorum with concurrent decisions (counted exactly, one
// approval.resolved); expiry driven by moving the keyed job; events in the
// same transaction as the change; bad input refused without a change.
import t from 'tap';
import { approvalsFixture, caseOf, decide, eventsOf, expireNow, openCase, person, rawClient } from './helpers.ts';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';

t.test('a case is opened by an admin, seen by its approvers only, and decided once by each eligible person', async (t) => {
  const { tp, admin, adminSub } = await approvalsFixture(t);
  const ann = await person(tp, 'acme', 'ann', ['finance']);
  const bob = await person(tp, 'acme', 'bob');
  const eve = await person(tp, 'acme', 'eve');

  const refused = await tp.request({ method: 'POST', url: '/api/approvals', token: ann, payload: { title: 'x', approvers: { users: ['bob'] } } });
  t.equal(refused.status, 403, 'only an admin (or a service token) opens a case directly');
  const bad = await tp.request({ method: 'POST', url: '/api/approvals', token: admin, payload: { title: 'x', approvers: {} } });
  t.equal(bad.status, 400, 'approvers must name someone');
  t.equal(bad.body.code, 'INVALID_APPROVAL');
  const unknown = await tp.request({ method: 'POST', url: '/api/approvals', token: admin, payload: { title: 'x', approvers: { users: ['bob'] }, extra: 1 } });
  t.equal(unknown.status, 400);
  t.same((await tp.request({ url: '/api/approvals', token: admin })).body.total, 0, 'bad input changed nothing');

  const opened = await openCase(tp, admin, {
    title: 'Refund order 42', description: '120 EUR', payload: { order: 42, amount: 120 }, approvers: { roles: ['finance'], users: ['bob'] }, quorum: 2,
  });
  t.match(opened, { title: 'Refund order 42', status: 'pending', quorum: 2, source: { type: 'api' }, requested_by: adminSub, decisions: [] });
  t.ok(new Date(opened.expires_at).getTime() - Date.now() > 6.9 * 24 * 3600 * 1000, 'expires in a week by default');
  const created = await eventsOf(tp, admin, 'approval.created');
  t.match(created, [{ data: { case_id: opened.id, status: 'pending', source: { type: 'api' }, decisions: [] } }]);

  t.same((await tp.request({ url: '/api/approvals', token: ann })).body.items.map((c: { id: string }) => c.id), [opened.id], 'a role holder lists it');
  t.same((await tp.request({ url: '/api/approvals', token: bob })).body.items.map((c: { id: string }) => c.id), [opened.id], 'a listed user lists it');
  t.same((await tp.request({ url: '/api/approvals', token: eve })).body, { items: [], total: 0, skip: 0, limit: 50 }, 'others do not');
  t.equal((await tp.request({ url: `/api/approvals/${opened.id}`, token: eve })).status, 404, 'nor read it');
  t.equal((await tp.request({ url: '/api/approvals?mine=true', token: admin })).body.total, 0, 'mine: what the caller may decide');
  t.equal((await tp.request({ url: '/api/approvals?status=pending&source_type=api', token: admin })).body.total, 1, 'an admin lists all');

  const notApprover = await decide(tp, eve, opened.id, 'approve');
  t.equal(notApprover.status, 403);
  t.equal(notApprover.body.code, 'NOT_AN_APPROVER');
  const superAdmin = await tp.request({ method: 'POST', url: `/api/approvals/${opened.id}/decision`, token: tp.adminToken, tenant: 'acme', payload: { decision: 'approve' } });
  t.equal(superAdmin.status, 403, 'the super-admin acts as admin but does not decide');
  t.match(superAdmin.body.message, /Only people decide/);
  const adminNotApprover = await decide(tp, admin, opened.id, 'approve');
  t.equal(adminNotApprover.status, 403, 'an admin not among the approvers does not decide either');

  const first = await decide(tp, ann, opened.id, 'approve', 'fine by me');
  t.equal(first.status, 200);
  t.match(first.body, { status: 'pending', decisions: [{ by: 'ann', decision: 'approve', comment: 'fine by me', via: 'api' }] });
  const twice = await decide(tp, ann, opened.id, 'approve');
  t.equal(twice.status, 409, 'each person decides once');
  t.equal(twice.body.code, 'ALREADY_DECIDED');
  const second = await decide(tp, bob, opened.id, 'approve');
  t.match(second.body, { status: 'approved', decisions: [{ by: 'ann' }, { by: 'bob' }] });
  t.ok(second.body.resolved_at);
  const late = await decide(tp, ann, opened.id, 'reject');
  t.equal(late.status, 409);
  t.equal(late.body.code, 'APPROVAL_RESOLVED');
  const resolved = await eventsOf(tp, admin, 'approval.resolved');
  t.match(resolved, [{ data: { case_id: opened.id, status: 'approved', timed_out: false, source: { type: 'api' }, decisions: [{ by: 'ann' }, { by: 'bob' }] } }]);

  const rejected = await openCase(tp, admin, { title: 'Delete the archive', approvers: { roles: ['finance'] }, quorum: 3 });
  t.match((await decide(tp, ann, rejected.id, 'reject')).body, { status: 'rejected' }, 'one rejection rejects');
});

t.test('quorum 2: two approvers deciding at the same instant are counted exactly, with one approval.resolved', async (t) => {
  const { tp, admin } = await approvalsFixture(t);
  const tokens = await Promise.all(['p1', 'p2', 'p3'].map((sub) => person(tp, 'acme', sub, ['board'])));
  for (let round = 0; round < 3; round++) {
    const opened = await openCase(tp, admin, { title: `Round ${round}`, approvers: { roles: ['board'] }, quorum: 2 });
    const answers = await Promise.all(tokens.map((token) => decide(tp, token, opened.id, 'approve')));
    t.same(answers.map((a) => a.status).sort(), [200, 200, 409], 'two decisions count, the third finds it resolved');
    const after = await caseOf(tp, admin, opened.id);
    t.equal(after.status, 'approved');
    t.equal(after.decisions.length, 2, 'exactly the quorum');
    const resolved = (await eventsOf(tp, admin, 'approval.resolved')).filter((e) => e.data.case_id === opened.id);
    t.equal(resolved.length, 1, 'one approval.resolved');
  }
});

t.test('cancel: the requester or an admin; expiry: the keyed job, driven by moving its run_at', async (t) => {
  const { tp, admin } = await approvalsFixture(t);
  const db = await rawClient(t, tp.databaseUrl);
  const ann = await person(tp, 'acme', 'ann', ['finance']);
  const opened = await openCase(tp, admin, { title: 'Spend', approvers: { users: ['ann'] } });
  const notYours = await tp.request({ method: 'POST', url: `/api/approvals/${opened.id}/cancel`, token: ann });
  t.equal(notYours.status, 403, 'an approver is not the requester');
  t.equal(notYours.body.code, 'CANCEL_FORBIDDEN');
  const cancelled = await tp.request({ method: 'POST', url: `/api/approvals/${opened.id}/cancel`, token: admin });
  t.equal(cancelled.status, 200);
  t.equal(cancelled.body.status, 'cancelled');
  t.equal((await db.query(`SELECT 1 FROM graphile_worker._private_jobs WHERE key = $1`, [`approvals.expire:${opened.id}`])).rowCount, 0, 'its timer is gone');
  t.equal((await tp.request({ method: 'POST', url: `/api/approvals/${opened.id}/cancel`, token: admin })).status, 409);

  const timed = await openCase(tp, admin, { title: 'Soon', approvers: { users: ['ann'] }, timeout_seconds: 3600 });
  const job = await db.query(`SELECT run_at FROM graphile_worker._private_jobs WHERE key = $1`, [`approvals.expire:${timed.id}`]);
  t.equal(new Date(job.rows[0].run_at).getTime(), new Date(timed.expires_at).getTime(), 'the timer runs at expires_at');
  await expireNow(db, timed.id);
  const expired = await import('./helpers.ts').then((h) => h.settledCase(tp, admin, timed.id));
  t.equal(expired.status, 'expired');
  const resolved = (await eventsOf(tp, admin, 'approval.resolved')).find((e) => e.data.case_id === timed.id);
  t.match(resolved?.data, { status: 'expired', timed_out: true });
  t.equal((await decide(tp, ann, timed.id, 'approve')).status, 409, 'too late');
});

t.test('another tenant sees and decides nothing of a case', async (t) => {
  const { tp, admin } = await approvalsFixture(t);
  const other = await tenantWithAdmin(tp, 'other');
  const opened = await openCase(tp, admin, { title: 'Ours', approvers: { roles: ['admin'] } });
  t.equal((await tp.request({ url: `/api/approvals/${opened.id}`, token: other.token })).status, 404);
  t.equal((await tp.request({ url: '/api/approvals', token: other.token })).body.total, 0);
  const foreign = await tp.request({ method: 'POST', url: `/api/approvals/${opened.id}/decision`, token: other.token, payload: { decision: 'approve' } });
  t.equal(foreign.status, 404, 'an admin of another tenant (in its own tenant) finds no such case');
  const spoofed = await tp.request({ method: 'POST', url: `/api/approvals/${opened.id}/decision`, token: other.token, tenant: 'acme', payload: { decision: 'approve' } });
  t.equal(spoofed.status, 403, 'and cannot act in ours');
  t.equal((await caseOf(tp, admin, opened.id)).status, 'pending');
});
