// GraphQL access: every top-level field takes exactly the
// principals and roles of the REST route that owns the same data. The fields
// come from the schema by introspection (default manifest: every plugin), and
// ACCESS below must name each one: a new field without a rule fails this test.
// Each field is asked by a tenant admin, a plain member (no roles), an API key
// of the tenant (naming a visitor, as the chat routes require), an admin of another tenant sending this tenant's id, anonymous
// and the super-admin. Then an API key's citations: only its own client's,
// nothing through a citation's chunk or document, subscriptions included.
import t from 'tap';
import { startTestPlatform, tenantWithAdmin, until, type TestPlatform } from '../harness.ts';
import { apiKey, callFunction, seedDocument } from '../../plugins/citations/test/helpers.ts';

/**
 * Who may read each top-level field, after the REST route that owns its data:
 * member = auth 'bearer', tenant required (GET /api/admin/... of the plugin);
 * admin = the same with role admin; member_or_api_key = auth ['bearer', 'api-key']
 * (the citations routes; an API key sees its own client's records only);
 * anyone = no authentication needed (viewer: null when anonymous).
 */
type Access = 'anyone' | 'member' | 'admin' | 'member_or_api_key';
const NO_ID = '00000000-0000-4000-8000-000000000000';
/** `okError`: an allowed caller passes the access check and gets this code from the data (e.g. a mutation on no case). */
const ACCESS: Record<string, { access: Access; rest: string; query: string; okError?: string }> = {
  'Query.viewer': { access: 'anyone', rest: 'GET /api/me', query: '{ viewer { kind sub tenantId } }' },
  'Query.tenant': { access: 'member', rest: 'GET /api/admin/tenants/{id}', query: '{ tenant { id clients { edges { node { clientKey } } } } }' },
  'Query.clients': { access: 'member', rest: 'GET /api/admin/clients', query: '{ clients { edges { node { id clientKey } } } }' },
  'Query.executions': { access: 'admin', rest: 'GET /api/admin/executions', query: '{ executions { edges { node { id context wait { kind } bufferedSignals { data } } } totalCount } }' },
  'Query.execution': { access: 'admin', rest: 'GET /api/admin/executions/{id}', query: `{ execution(id: "${NO_ID}") { id context } }` },
  'Query.events': { access: 'admin', rest: 'GET /api/admin/triggers/events/recent', query: '{ events { edges { node { id data } } } }' },
  'Query.triggers': { access: 'admin', rest: 'GET /api/admin/triggers', query: '{ triggers { edges { node { name inputMapping } } } }' },
  'Query.trigger': { access: 'admin', rest: 'GET /api/admin/triggers/{name}', query: '{ trigger(name: "nightly") { name recentDispatches { id } } }' },
  'Query.collections': { access: 'member', rest: 'GET /api/admin/collections', query: '{ collections { edges { node { name documents { edges { node { name } } } } } } }' },
  'Query.documents': { access: 'member', rest: 'GET /api/admin/documents', query: '{ documents { edges { node { name chunks { edges { node { text } } } } } } }' },
  'Query.document': { access: 'member', rest: 'GET /api/admin/documents/{id}', query: `{ document(id: "${NO_ID}") { name } }` },
  'Query.search': { access: 'member', rest: 'GET /api/admin/search', query: '{ search(query: "reactor") { text } }' },
  'Mutation.reingestDocument': {
    access: 'admin', rest: 'POST /api/admin/documents/{id}/reingest', query: `mutation { reingestDocument(id: "${NO_ID}") { id } }`, okError: 'DOCUMENT_NOT_FOUND',
  },
  'Query.specs': { access: 'admin', rest: 'GET /api/admin/integrations/specs', query: '{ specs { edges { node { name baseUrl functions { edges { node { name } } } } } } }' },
  'Query.functions': { access: 'admin', rest: 'GET /api/admin/functions (admin)', query: '{ functions { edges { node { name parameters } } } }' },
  'Query.embedConfig': { access: 'admin', rest: 'GET /api/admin/clients/{id}/embed', query: '{ embedConfig(clientId: 999999) { clientKey } }' },
  'Query.citations': { access: 'member_or_api_key', rest: 'GET /api/citations', query: '{ citations { edges { node { id quotedText } } } }' },
  'Query.citation': { access: 'member_or_api_key', rest: 'GET /api/citations/{id}', query: `{ citation(id: "${NO_ID}") { id } }` },
  'Query.citationStats': { access: 'member_or_api_key', rest: 'GET /api/citations/stats', query: '{ citationStats { total } }' },
  'Query.chatSession': { access: 'member_or_api_key', rest: 'GET /api/sessions/{id}', query: `{ chatSession(id: "${NO_ID}") { id messages { edges { node { id } } } } }` },
  'Query.chatSessions': { access: 'member_or_api_key', rest: 'GET /api/sessions', query: '{ chatSessions { totalCount edges { node { id title } } } }' },
  'Query.tenantChatSession': { access: 'admin', rest: 'GET /api/admin/chat/sessions/{id}', query: `{ tenantChatSession(id: "${NO_ID}") { id title } }` },
  'Query.tenantChatSessions': { access: 'admin', rest: 'GET /api/admin/chat/sessions', query: '{ tenantChatSessions { totalCount edges { node { id title } } } }' },
  'Query.formSubmissions': { access: 'admin', rest: 'GET /api/admin/forms/submissions', query: '{ formSubmissions { edges { node { id payload } } } }' },
  'Query.formSubmission': { access: 'admin', rest: 'GET /api/admin/forms/submissions/{id}', query: `{ formSubmission(id: "${NO_ID}") { id payload } }` },
  'Query.datasets': { access: 'member', rest: 'GET /api/v1/datasets', query: '{ datasets { edges { node { id latestSnapshot { id } snapshots { edges { node { id } } } } } } }' },
  'Query.dataset': { access: 'member', rest: 'GET /api/v1/datasets/{id}', query: '{ dataset(id: "raw.ga.nothing") { id } }' },
  'Query.sources': { access: 'member', rest: 'GET /api/v1/sources', query: '{ sources { edges { node { id sourceConfig streams { name } runs { edges { node { id } } } } } } }' },
  'Query.source': { access: 'member', rest: 'GET /api/v1/sources/{id}', query: `{ source(id: "${NO_ID}") { id } }` },
  'Query.runs': { access: 'member', rest: 'GET /api/v1/sources/{id}/sync-history', query: '{ runs { edges { node { id status source { id } streams { snapshotId stream { id } } } } totalCount } }' },
  'Query.run': { access: 'member', rest: 'GET /api/v1/sources/sync-runs/{id}/streams', query: `{ run(id: "${NO_ID}") { id } }` },
  // Staff fields: role staff or admin; the plain member (no roles) gets ROLE_REQUIRED as for admin fields.
  'Query.occurrences': { access: 'admin', rest: 'GET /api/backoffice/occurrences (staff)', query: '{ occurrences { edges { node { id reporterEmail } } } }' },
  'Query.occurrence': { access: 'admin', rest: 'GET /api/backoffice/occurrences/{id} (staff)', query: '{ occurrence(id: "1") { id reporterEmail } }' },
  'Mutation.transitionOccurrence': {
    access: 'admin', rest: 'POST /api/occurrences/{id}/transition_state (staff)',
    query: 'mutation { transitionOccurrence(id: "987654", input: {toState: "triaged"}) { id } }', okError: 'OCCURRENCE_NOT_FOUND',
  },
  'Subscription.citationVerified': { access: 'member_or_api_key', rest: 'GET /api/citations (live)', query: 'subscription { citationVerified { id } }' },
  'Query.approvals': { access: 'member', rest: 'GET /api/approvals', query: '{ approvals { edges { node { id title payload } } } }' },
  'Query.approval': { access: 'member', rest: 'GET /api/approvals/{id}', query: `{ approval(id: "${NO_ID}") { id payload } }` },
  'Mutation.decideApproval': {
    access: 'member', rest: 'POST /api/approvals/{id}/decision', query: `mutation { decideApproval(id: "${NO_ID}", decision: APPROVE) { id } }`, okError: 'APPROVAL_NOT_FOUND',
  },
  'Subscription.approvalResolved': { access: 'member', rest: 'GET /api/approvals (live)', query: 'subscription { approvalResolved { id } }' },
  'Query.transforms': { access: 'member', rest: 'GET /api/v1/transforms', query: '{ transforms { edges { node { id sql runs { edges { node { id snapshotId } } } } } } }' },
  'Query.transform': { access: 'member', rest: 'GET /api/v1/transforms/{id}', query: `{ transform(id: "${NO_ID}") { id } }` },
  'Query.transformRuns': { access: 'member', rest: 'GET /api/v1/transform-runs', query: '{ transformRuns { edges { node { id status error { code } transform { id } pipelineRun { id } logs { message } } } totalCount } }' },
  'Query.transformRun': { access: 'member', rest: 'GET /api/v1/transform-runs/{id}', query: '{ transformRun(id: "1") { id } }' },
  'Query.identityPolicies': { access: 'member', rest: 'GET /api/v1/identity-policies', query: '{ identityPolicies { edges { node { id rules { kind } } } } }' },
  'Query.identityPolicy': { access: 'member', rest: 'GET /api/v1/identity-policies/{id}', query: `{ identityPolicy(id: "${NO_ID}") { id } }` },
  'Query.registrySchemas': { access: 'member', rest: 'GET /api/v1/schemas/registry', query: '{ registrySchemas { edges { node { subject schema source dataset { id } } } } }' },
  'Query.librarySchemas': { access: 'member', rest: 'GET /api/v1/sdm', query: '{ librarySchemas { edges { node { id schema library { id } } } } }' },
  'Query.pipelines': { access: 'member', rest: 'GET /api/v1/pipelines', query: '{ pipelines { edges { node { id steps runs { edges { node { id } } } } } } }' },
  'Query.pipeline': { access: 'member', rest: 'GET /api/v1/pipelines/{id}', query: `{ pipeline(id: "${NO_ID}") { id } }` },
  'Query.pipelineRuns': { access: 'member', rest: 'GET /api/v1/pipelines/{id}/runs', query: '{ pipelineRuns { edges { node { id status pipeline { id } steps { stepId snapshotId } } } totalCount } }' },
  'Query.pipelineRun': { access: 'member', rest: 'GET /api/v1/pipelines/{id}/sandbox/{workflow_id}/status', query: `{ pipelineRun(id: "${NO_ID}") { id } }` },
  // Starting runs takes admin or pipeline_editor, as the REST actions: the plain member (no roles) gets ROLE_REQUIRED.
  'Mutation.runPipeline': {
    access: 'admin', rest: 'POST /api/v1/temporal/workflows/pipeline (pipeline editor)', query: `mutation { runPipeline(pipelineId: "${NO_ID}") { id } }`, okError: 'PIPELINE_NOT_FOUND',
  },
  'Mutation.runPipelineSandbox': {
    access: 'admin', rest: 'POST /api/v1/pipelines/{id}/sandbox (pipeline editor)', query: `mutation { runPipelineSandbox(pipelineId: "${NO_ID}") { id } }`, okError: 'PIPELINE_NOT_FOUND',
  },
  'Mutation.syncSource': {
    access: 'admin', rest: 'POST /api/v1/sources/{id}/sync (pipeline editor)', query: `mutation { syncSource(sourceId: "${NO_ID}") { id } }`, okError: 'SOURCE_NOT_FOUND',
  },
  'Mutation.materializeTransform': {
    access: 'admin', rest: 'POST /api/v1/transforms/{id}/materialize (pipeline editor)', query: `mutation { materializeTransform(transformId: "${NO_ID}") { id } }`, okError: 'TRANSFORM_NOT_FOUND',
  },
  'Query.entityTypes': { access: 'member', rest: 'GET /api/v1/ontology/entity-types', query: '{ entityTypes { edges { node { code properties } } } }' },
  'Query.entities': {
    access: 'member', rest: 'GET /api/v1/ontology (entity read)', query: '{ entities(filter: { type: "street_light" }) { edges { node { key properties } } } }', okError: 'ENTITY_TYPE_NOT_FOUND',
  },
  'Query.backingDatasetSyncRuns': {
    access: 'member', rest: 'GET /api/v1/backing-datasets/{id}/sync-history', query: `{ backingDatasetSyncRuns(filter: { backingDatasetId: "${NO_ID}" }) { edges { node { id } } } }`, okError: 'BACKING_DATASET_NOT_FOUND',
  },
};

type Principal = 'admin' | 'member' | 'apiKey' | 'foreignAdmin' | 'anonymous' | 'superAdmin';
/** What each principal gets: 'ok', an error code in the GraphQL response, or an HTTP status from the route. */
function expected(access: Access, principal: Principal): string {
  if (principal === 'foreignAdmin') return 'HTTP 403 TENANT_FORBIDDEN';
  if (access === 'anyone' || principal === 'admin' || principal === 'superAdmin') return 'ok';
  if (principal === 'anonymous') return 'UNAUTHENTICATED';
  if (principal === 'member') return access === 'admin' ? 'ROLE_REQUIRED' : 'ok';
  return access === 'member_or_api_key' ? 'ok' : 'FORBIDDEN';
}

const TEXT = 'The reactor is inspected weekly; the inspection log is kept in the control room.';

async function fixture(t: Tap) {
  const tp = await startTestPlatform(t, { listen: true });
  const admin = await tenantWithAdmin(tp, 'ga');
  const foreign = await tenantWithAdmin(tp, 'gb');
  const created = await tp.request({
    method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'ga-member', display_name: 'Member', organizations: ['ga'], roles: [] },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const member = (await tp.request({ method: 'POST', url: '/api/admin/users/ga-member/tokens', token: tp.adminToken })).body.access_token as string;
  const keyA = await apiKey(tp, admin.token, 'ga', 'widget-a');
  const keyB = await apiKey(tp, admin.token, 'ga', 'widget-b');
  const auth: Record<Principal, { token?: string; apiKey?: string; tenant?: string; headers?: Record<string, string> }> = {
    admin: { token: admin.token },
    member: { token: member },
    apiKey: { apiKey: keyA.key, headers: { 'x-visitor-id': 'visitor-graphql' } },
    foreignAdmin: { token: foreign.token, tenant: 'ga' },
    anonymous: { tenant: 'ga' },
    superAdmin: { token: tp.adminToken, tenant: 'ga' },
  };
  return { tp, admin, foreign, member, keyA, keyB, auth };
}
type Tap = Parameters<typeof startTestPlatform>[0];

async function gql(tp: TestPlatform, query: string, auth: { token?: string; apiKey?: string; tenant?: string; headers?: Record<string, string> }) {
  const response = await tp.request({ method: 'POST', url: '/graphql', payload: { query }, ...auth });
  return response as { status: number; body: any };
}

/** Opens a subscription over SSE on the loopback server; `events` yields each `data:` payload. */
async function subscribe(tp: TestPlatform, query: string, auth: { token?: string; apiKey?: string; tenant?: string }, signal?: AbortSignal) {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  if (auth.apiKey) headers['x-api-key'] = auth.apiKey;
  if (auth.tenant) headers['x-tenant-id'] = auth.tenant;
  const response = await fetch(tp.url('/graphql'), { method: 'POST', headers, body: JSON.stringify({ query }), signal });
  async function* events() {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
        if (data) yield JSON.parse(data);
      }
    }
  }
  return { response, events: events() };
}

/** Reads a subscription that must be refused: the route's status, or the one error event before the stream ends. */
async function refusal(tp: TestPlatform, query: string, auth: { token?: string; apiKey?: string; tenant?: string }): Promise<string> {
  const { response, events } = await subscribe(tp, query, auth);
  if (response.status !== 200) return `HTTP ${response.status} ${(await response.json()).code}`;
  const payloads = [];
  for await (const payload of events) payloads.push(payload);
  if (payloads.length !== 1 || payloads[0].data) return `unexpected ${JSON.stringify(payloads)}`;
  return payloads[0].errors?.[0]?.extensions?.code;
}

t.test('every top-level field has an access rule, and each principal gets exactly what REST gives it', async (t) => {
  const { tp, keyA, auth } = await fixture(t);
  const clientKey = (await tp.request({ url: `/api/admin/clients/${keyA.clientId}`, token: tp.adminToken, tenant: 'ga' })).body.client_key;

  const schema = await gql(tp, '{ __schema { queryType { fields { name } } mutationType { fields { name } } subscriptionType { fields { name } } } }', {});
  t.notOk(schema.body.errors);
  const fields: string[] = [];
  for (const [root, type] of [['Query', 'queryType'], ['Mutation', 'mutationType'], ['Subscription', 'subscriptionType']] as const) {
    for (const field of schema.body.data.__schema[type]?.fields ?? []) fields.push(`${root}.${field.name}`);
  }
  t.same(fields.filter((field) => !(field in ACCESS)), [], 'every field of the schema has a rule in ACCESS (add the new one after its REST route)');
  t.same(Object.keys(ACCESS).filter((field) => !fields.includes(field)), [], 'ACCESS names no field the schema lacks');

  for (const [field, rule] of Object.entries(ACCESS)) {
    const [root, name] = field.split('.');
    for (const principal of Object.keys(auth) as Principal[]) {
      const want = expected(rule.access, principal);
      const what = `${field} (${rule.rest}) as ${principal}: ${want}`;
      if (root === 'Subscription') {
        // Allowed subscriptions stay open: they are checked with real events below.
        if (want !== 'ok') t.equal(await refusal(tp, rule.query, auth[principal]), want, what);
        continue;
      }
      const { status, body } = await gql(tp, rule.query, auth[principal]);
      if (want.startsWith('HTTP')) {
        t.equal(`HTTP ${status} ${body.code}`, want, what);
      } else if (want === 'ok' && rule.okError) {
        t.equal(status, 200, what);
        t.match(body.errors, [{ path: [name], extensions: { code: rule.okError } }], `${what}: past the access check`);
      } else if (want === 'ok') {
        t.equal(status, 200, what);
        t.same(body.errors ?? [], [], what);
        t.ok(body.data && name in body.data, `${what}: answered`);
      } else {
        t.equal(status, 200, what);
        t.match(body.errors, [{ path: [name], extensions: { code: want } }], what);
        t.ok(body.data === null || body.data[name] === null, `${what}: no data`);
        t.notMatch(JSON.stringify(body), clientKey, `${what}: no client key in the answer`);
      }
    }
  }
  const viewer = await gql(tp, ACCESS['Query.viewer'].query, auth.anonymous);
  t.same(viewer.body.data, { viewer: null }, 'the anonymous viewer is null');
  const members = await gql(tp, ACCESS['Query.clients'].query, auth.member);
  t.ok(members.body.data.clients.edges.some((edge: { node: { clientKey: string } }) => edge.node.clientKey === clientKey), 'a member reads client keys, as REST lets it');
});

t.test('an API key sees only its own client\'s citations, and no chunk or document through them, live included', async (t) => {
  const { tp, keyA, keyB, auth } = await fixture(t);
  const doc = await seedDocument(tp, 'ga', 'Reactor Log.txt', [TEXT]);
  const chunkId = doc.chunks[0].chunk_id;
  const cite = (clientId: number | undefined, id: string) =>
    callFunction(tp, 'ga', 'resolve_citation', { chunk_id: chunkId, quoted_text: 'inspected weekly' }, { type: 'chat_session', id }, clientId);
  const ofA = await cite(keyA.clientId, 'session-a');
  const ofB = await cite(keyB.clientId, 'session-b');
  const internal = await cite(undefined, 'workflow-1');
  const ids = (body: any) => body.data.citations.edges.map((edge: { node: { id: string } }) => edge.node.id).sort();

  const LIST = '{ citations { edges { node { id } } } citationStats { total } }';
  const asAdmin = await gql(tp, LIST, auth.admin);
  t.same(ids(asAdmin.body), [ofA.id, ofB.id, internal.id].sort(), 'an admin sees every citation of the tenant');
  t.same(asAdmin.body.data.citationStats, { total: 3 });
  t.same(ids((await gql(tp, LIST, auth.member)).body), [ofA.id, ofB.id, internal.id].sort(), 'so does a member');
  const asKey = await gql(tp, LIST, auth.apiKey);
  t.notOk(asKey.body.errors);
  t.same(ids(asKey.body), [ofA.id], 'an API key sees its own client\'s citation only');
  t.same(asKey.body.data.citationStats, { total: 1 }, 'and counts only those');
  const filtered = await gql(tp, `{ citations(filter: { executionContextId: "session-b" }) { edges { node { id } } } }`, auth.apiKey);
  t.same(ids(filtered.body), [], 'a filter cannot widen it');

  const ONE = (id: string) => `{ citation(id: "${id}") { id quotedText } }`;
  t.equal((await gql(tp, ONE(ofA.id), auth.apiKey)).body.data.citation.id, ofA.id);
  t.same((await gql(tp, ONE(ofB.id), auth.apiKey)).body, { data: { citation: null } }, 'another client\'s citation is not found, as an unknown id');
  t.same((await gql(tp, ONE(internal.id), auth.apiKey)).body, { data: { citation: null } });
  t.same((await gql(tp, ONE(NO_ID), auth.apiKey)).body, { data: { citation: null } });

  const NESTED = `{ citation(id: "${ofA.id}") { id chunk { text } document { name } } }`;
  const nested = await gql(tp, NESTED, auth.apiKey);
  t.match(nested.body.data.citation, { id: ofA.id, chunk: null, document: null }, 'chunk text and document stay with members');
  t.same(nested.body.errors.map((e: { path: string[]; extensions: { code: string } }) => [e.path.join('.'), e.extensions.code]).sort(),
    [['citation.chunk', 'FORBIDDEN'], ['citation.document', 'FORBIDDEN']]);
  t.notMatch(JSON.stringify(nested.body), 'inspection log', 'no chunk text in the answer');
  const nestedMember = await gql(tp, NESTED, auth.member);
  t.match(nestedMember.body.data.citation, { chunk: { text: TEXT }, document: { name: 'Reactor Log.txt' } }, 'a member reads them');

  // Live: subscriptions of another tenant's admin, of a key for another tenant (X-Tenant-ID), are refused by the route.
  const SUB = (fields = 'id') => `subscription { citationVerified { ${fields} } }`;
  t.equal(await refusal(tp, SUB(), { token: (await tenantWithAdmin(tp, 'gc')).token, tenant: 'ga' }), 'HTTP 403 TENANT_FORBIDDEN', 'another tenant\'s admin naming this tenant');
  t.equal(await refusal(tp, SUB(), { ...auth.apiKey, tenant: 'gb' }), 'HTTP 403 TENANT_FORBIDDEN', 'an API key naming another tenant');

  const controller = new AbortController();
  t.teardown(() => controller.abort());
  const open = async (principal: Principal | 'keyB', fields?: string) => {
    const { response, events } = await subscribe(tp, SUB(fields), principal === 'keyB' ? { apiKey: keyB.key } : auth[principal], controller.signal);
    t.equal(response.status, 200, `${principal} subscribes`);
    const seen: any[] = [];
    void (async () => {
      try {
        for await (const payload of events) seen.push(payload);
      } catch {
        // aborted at the end of the test
      }
    })();
    return seen;
  };
  const admin = await open('admin');
  const member = await open('member', 'id chunk { text }');
  const streamA = await open('apiKey', 'id chunk { text }');
  const streamB = await open('keyB');
  const idsOf = (seen: any[]) => seen.map((payload) => payload.data?.citationVerified?.id);
  const verify = (id: string) => callFunction(tp, 'ga', 'verify_citation', { citation_id: id });

  // Subscriptions start asynchronously: verify until each stream has its first event.
  await until(async () => (await verify(ofB.id)) && idsOf(streamB).includes(ofB.id) && idsOf(admin).includes(ofB.id), 'key B\'s subscription to be live');
  await until(async () => (await verify(ofA.id)) && idsOf(streamA).includes(ofA.id) && idsOf(member).includes(ofA.id) && idsOf(admin).includes(ofA.id),
    'key A\'s and the member\'s subscriptions to be live');
  // Both keys were live during every verification of the other's citation and of the internal one: one more
  // round, and each key's stream must have carried its own client's citations only.
  const [beforeA, beforeB] = [streamA.length, streamB.length];
  await verify(internal.id);
  await verify(ofB.id);
  await verify(ofA.id);
  await until(async () => idsOf(streamB).lastIndexOf(ofB.id) >= beforeB && idsOf(streamA).lastIndexOf(ofA.id) >= beforeA, 'each key\'s last event');
  t.same([...new Set(idsOf(streamB))], [ofB.id], 'key B\'s stream carried only its client\'s citation');
  t.same([...new Set(idsOf(streamA))], [ofA.id], 'key A\'s stream carried only its client\'s citation');
  await until(async () => idsOf(admin).includes(internal.id) && idsOf(member).includes(internal.id), 'the admin and the member to see the internal citation');
  const keyEvent = streamA.find((payload) => payload.data?.citationVerified?.id === ofA.id);
  t.match(keyEvent, { data: { citationVerified: { id: ofA.id, chunk: null } }, errors: [{ path: ['citationVerified', 'chunk'], extensions: { code: 'FORBIDDEN' } }] },
    'a live citation reaches an API key without its chunk');
  const memberEvent = member.find((payload) => payload.data?.citationVerified?.id === ofA.id);
  t.match(memberEvent, { data: { citationVerified: { id: ofA.id, chunk: { text: TEXT } } } });
  controller.abort();
});
