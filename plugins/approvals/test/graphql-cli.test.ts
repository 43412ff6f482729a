// GraphQL and CLI of approvals: the approvals
// connection and approval(id) see what REST shows each caller, decideApproval
// takes REST's rules, approvalResolved pushes a settled case to those who may
// see it; the CLI lists, shows and decides as a named approver.
import t from 'tap';
import { runCli, type TestPlatform } from 'agent-platform/sdk/testing';
import { approvalsFixture, caseOf, MANIFEST, openCase, person } from './helpers.ts';

const gql = (tp: TestPlatform, token: string, query: string) =>
  tp.request({ method: 'POST', url: '/graphql', token, payload: { query } }) as Promise<{ status: number; body: any }>;

/** An SSE subscription on the loopback server; resolves the first `data:` payload. */
async function firstEvent(tp: TestPlatform, token: string, query: string, signal: AbortSignal): Promise<{ first: Promise<any> }> {
  const response = await fetch(tp.url('/graphql'), {
    method: 'POST', signal, body: JSON.stringify({ query }),
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const first = (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += value;
      const data = buffer.split('\n\n').flatMap((frame) => frame.split('\n')).find((line) => line.startsWith('data:'));
      if (data) return JSON.parse(data.slice(5));
    }
  })();
  return { first };
}

t.test('GraphQL: approvals, approval, decideApproval and approvalResolved with REST\'s rules', async (t) => {
  const { tp, admin } = await approvalsFixture(t);
  const ann = await person(tp, 'acme', 'ann', ['finance']);
  const eve = await person(tp, 'acme', 'eve');
  const opened = await openCase(tp, admin, { title: 'Buy laptops', payload: { count: 3 }, approvers: { roles: ['finance'] } });
  await openCase(tp, admin, { title: 'Other', approvers: { users: ['bob'] } });

  const listed = await gql(tp, ann, '{ approvals(filter: {status: PENDING}) { edges { node { id title status sourceType payload approvers { roles users } } } pageInfo { hasNextPage } } }');
  t.same(listed.body.data.approvals.edges.map((e: any) => e.node), [{
    id: opened.id, title: 'Buy laptops', status: 'PENDING', sourceType: 'api', payload: { count: 3 }, approvers: { roles: ['finance'], users: [] },
  }], 'an approver lists what it may decide');
  const all = await gql(tp, admin, '{ approvals(first: 1) { edges { node { title } cursor } pageInfo { hasNextPage endCursor } } }');
  t.equal(all.body.data.approvals.edges.length, 1);
  t.equal(all.body.data.approvals.pageInfo.hasNextPage, true, 'an admin sees both, a page at a time');
  const next = await gql(tp, admin, `{ approvals(first: 5, after: "${all.body.data.approvals.pageInfo.endCursor}") { edges { node { title } } pageInfo { hasNextPage } } }`);
  t.same(next.body.data.approvals.edges.map((e: any) => e.node.title), ['Buy laptops']);
  const end = await gql(tp, admin, '{ approvals(last: 1) { edges { node { title } } pageInfo { hasPreviousPage hasNextPage startCursor } totalCount } }');
  t.same(end.body.data.approvals.edges.map((e: any) => e.node.title), ['Buy laptops'], 'last: the oldest, the end of the list');
  t.match(end.body.data.approvals, { pageInfo: { hasPreviousPage: true, hasNextPage: false }, totalCount: 2 });
  const before = await gql(tp, admin, `{ approvals(last: 5, before: "${end.body.data.approvals.pageInfo.startCursor}") { edges { node { title } } pageInfo { hasPreviousPage } } }`);
  t.same(before.body.data.approvals.edges.map((e: any) => e.node.title), ['Other']);
  t.equal(before.body.data.approvals.pageInfo.hasPreviousPage, false);
  t.equal((await gql(tp, ann, '{ approvals { totalCount } }')).body.data.approvals.totalCount, 1, 'totalCount counts what the caller may list');
  t.equal((await gql(tp, admin, '{ approvals(filter: {mine: true}) { totalCount } }')).body.data.approvals.totalCount, 0, 'mine: only what the admin may decide itself');
  t.match((await gql(tp, admin, `{ approvals(first: 1, before: "${end.body.data.approvals.pageInfo.startCursor}") { totalCount } }`)).body.errors,
    [{ extensions: { code: 'BAD_USER_INPUT' } }], 'one direction at a time');
  t.same((await gql(tp, eve, `{ approval(id: "${opened.id}") { id } }`)).body.data, { approval: null }, 'not an approver: no case');

  const refused = await gql(tp, eve, `mutation { decideApproval(id: "${opened.id}", decision: APPROVE) { id } }`);
  t.match(refused.body.errors, [{ extensions: { code: 'NOT_AN_APPROVER' } }]);

  const controller = new AbortController();
  t.teardown(() => controller.abort());
  const watchAnn = await firstEvent(tp, ann, `subscription { approvalResolved { id status decisions { by decision comment } } }`, controller.signal);
  // Decided after subscribing: delivered whether or not the subscription's first poll ran before it.
  const decided = await gql(tp, ann, `mutation { decideApproval(id: "${opened.id}", decision: APPROVE, comment: "yes") { id status decisions { by decision comment via } } }`);
  t.same(decided.body.data.decideApproval, { id: opened.id, status: 'APPROVED', decisions: [{ by: 'ann', decision: 'APPROVE', comment: 'yes', via: 'api' }] });
  const pushed = await watchAnn.first;
  t.same(pushed.data.approvalResolved, { id: opened.id, status: 'APPROVED', decisions: [{ by: 'ann', decision: 'APPROVE', comment: 'yes' }] });
  const again = await gql(tp, ann, `mutation { decideApproval(id: "${opened.id}", decision: REJECT) { id } }`);
  t.match(again.body.errors, [{ extensions: { code: 'APPROVAL_RESOLVED' } }]);
});

t.test('CLI: approvals list, show, approve and reject as a named approver', async (t) => {
  const { tp, admin } = await approvalsFixture(t);
  await person(tp, 'acme', 'ann', ['finance']);
  const cli = (args: string[]) => runCli(args, { platform: tp, env: { PLATFORM_MANIFEST: MANIFEST } });
  const one = await openCase(tp, admin, { title: 'First', approvers: { roles: ['finance'] } });
  const two = await openCase(tp, admin, { title: 'Second', approvers: { users: ['ann'] } });

  const listed = await cli(['approvals', 'list', '--tenant', 'acme', '--status', 'pending', '--json']);
  t.equal(listed.code, 0, listed.stderr);
  t.same(JSON.parse(listed.stdout).items.map((c: { title: string }) => c.title).sort(), ['First', 'Second']);
  const shown = await cli(['approvals', 'show', one.id, '--tenant', 'acme', '--json']);
  t.equal(JSON.parse(shown.stdout).title, 'First');

  const stranger = await cli(['approvals', 'approve', one.id, '--tenant', 'acme', '--as', 'mallory', '--json']);
  t.not(stranger.code, 0, 'only an approver known to the directory decides');
  t.match(stranger.stderr, /not among the approvers/);
  const approved = await cli(['approvals', 'approve', one.id, '--tenant', 'acme', '--as', 'ann', '--comment', 'from the shell', '--json']);
  t.equal(approved.code, 0, approved.stderr);
  t.match(JSON.parse(approved.stdout), { status: 'approved', decisions: [{ by: 'ann', comment: 'from the shell', via: 'cli' }] });
  const rejected = await cli(['approvals', 'reject', two.id, '--tenant', 'acme', '--as', 'ann', '--json']);
  t.equal(rejected.code, 0, rejected.stderr);
  t.equal((await caseOf(tp, admin, two.id)).status, 'rejected');
  const bad = await cli(['approvals', 'list', '--tenant', 'acme', '--status', 'nope']);
  t.not(bad.code, 0);
});
