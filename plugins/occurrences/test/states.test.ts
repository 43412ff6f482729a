// States and transitions: the seeded graph, allowed
// transitions, transitions allowed, refused (409 with the allowed ones) and
// stale (409), duplicate needing duplicate_of, history, the event, roles,
// the staff-admin graph edit, and the same transition through GraphQL.
import t from 'tap';
import { api, eventsOf, occurrencesPlatform, report } from './helpers.ts';

t.test('staff move occurrences along the graph; every change is in the history', async (t) => {
  const { tp, admin, staff, member } = await occurrencesPlatform(t);
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });
  const first = (await a.submit('acme', report(type.id))).body;
  const second = (await a.submit('acme', report(type.id))).body;

  for (const path of ['/api/backoffice/states', '/api/backoffice/states/']) {
    const graph = await a.call('GET', path, { token: staff });
    t.equal(graph.status, 200, path);
    t.same(graph.body.states.map((s: { key: string }) => s.key), ['submitted', 'triaged', 'in_progress', 'resolved', 'rejected', 'duplicate']);
    t.same(graph.body.states.filter((s: { is_final: boolean }) => s.is_final).map((s: { key: string }) => s.key), ['resolved', 'rejected', 'duplicate']);
    t.same(graph.body.states.filter((s: { is_initial: boolean }) => s.is_initial).map((s: { key: string }) => s.key), ['submitted']);
  }

  for (const path of ['/api/backoffice/states/allowed_transitions', '/api/backoffice/states/allowed_transitions/']) {
    const allowed = await a.call('GET', `${path}?occurrence_id=${first.id}`, { token: staff });
    t.equal(allowed.status, 200, path);
    t.same(allowed.body.allowed_transitions.map((s: { to_state: string }) => s.to_state), ['triaged', 'rejected', 'duplicate']);
    t.same(allowed.body.allowed_transitions.find((s: { to_state: string }) => s.to_state === 'duplicate').requires, ['duplicate_of']);
  }

  const moved = await a.call('POST', `/api/occurrences/${first.id}/transition_state`, { token: staff }, { to_state: 'triaged', comment: 'seen', expected_state: 'submitted' });
  t.equal(moved.status, 200, JSON.stringify(moved.body));
  t.match(moved.body, { id: first.id, state: 'triaged', reporter_name: 'Ana Silva' });

  const refused = await a.transition(staff, first.id, { to_state: 'resolved' });
  t.equal(refused.status, 409);
  t.equal(refused.body.code, 'TRANSITION_NOT_ALLOWED');
  t.same(refused.body.allowed_transitions, ['duplicate', 'in_progress', 'rejected']);

  const stale = await a.transition(staff, first.id, { to_state: 'in_progress', expected_state: 'submitted' });
  t.equal(stale.status, 409);
  t.equal(stale.body.code, 'STATE_CHANGED');
  t.equal(stale.body.current_state, 'triaged');

  t.equal((await a.transition(staff, second.id, { to_state: 'duplicate' })).status, 422, 'duplicate needs duplicate_of');
  t.equal((await a.transition(staff, second.id, { to_state: 'duplicate', duplicate_of: second.id })).status, 422);
  t.equal((await a.transition(staff, second.id, { to_state: 'triaged', duplicate_of: first.id })).status, 422, 'duplicate_of only for duplicate');
  const dup = await a.transition(admin, second.id, { to_state: 'duplicate', duplicate_of: first.id, comment: 'same hole' });
  t.equal(dup.status, 200, 'an admin is staff too');
  t.equal(dup.body.duplicate_of, first.id);
  t.same((await a.call('GET', `/api/backoffice/states/allowed_transitions?occurrence_id=${second.id}`, { token: staff })).body.allowed_transitions, [], 'final');

  const detail = (await a.call('GET', `/api/backoffice/occurrences/${first.id}`, { token: staff })).body;
  t.same(detail.history.map((h: { from_state: string | null; to_state: string; actor: string | null }) => [h.from_state, h.to_state, h.actor]),
    [[null, 'submitted', null], ['submitted', 'triaged', 'acme-staff']]);
  t.equal(detail.history[1].comment, 'seen');
  t.same(detail.duplicates.map((d: { id: number }) => d.id), [second.id], 'linked duplicates');

  const events = await eventsOf(tp, admin, 'occurrence.state_changed', 2);
  t.same(events.map((e: { data: { to_state: string } }) => e.data.to_state).sort(), ['duplicate', 'triaged']);

  t.equal((await a.transition(member, first.id, { to_state: 'in_progress' })).status, 403, 'a member without staff role');
  t.equal((await a.call('POST', `/api/occurrences/${first.id}/transition_state`, { tenant: 'acme' }, { to_state: 'in_progress' })).status, 401);
  t.equal((await a.transition(staff, 987654, { to_state: 'triaged' })).status, 404);
  t.equal((await a.call('GET', '/api/backoffice/states/allowed_transitions?occurrence_id=987654', { token: staff })).status, 404);
});

t.test('a staff admin replaces the graph; staff cannot; states in use stay', async (t) => {
  const { tp, admin, staff } = await occurrencesPlatform(t);
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });
  const one = (await a.submit('acme', report(type.id))).body;

  const graph = {
    states: [
      { key: 'submitted', label: 'New', is_initial: true },
      { key: 'assigned', label: 'Assigned to a crew' },
      { key: 'closed', label: 'Closed', is_final: true },
    ],
    transitions: [{ from_state: 'submitted', to_state: 'assigned' }, { from_state: 'assigned', to_state: 'closed' }, { from_state: 'closed', to_state: 'assigned' }],
  };
  t.equal((await a.call('PUT', '/api/backoffice/states', { token: staff }, graph)).status, 403);
  const put = await a.call('PUT', '/api/backoffice/states/', { token: admin }, graph);
  t.equal(put.status, 200, JSON.stringify(put.body));
  t.same(put.body.states.map((s: { key: string }) => s.key), ['submitted', 'assigned', 'closed']);
  t.equal((await a.transition(staff, one.id, { to_state: 'assigned' })).status, 200);
  t.equal((await a.transition(staff, one.id, { to_state: 'closed' })).status, 200);
  t.equal((await a.transition(staff, one.id, { to_state: 'assigned' })).status, 200, 'a final state may reopen when the graph says so');

  const bad = await a.call('PUT', '/api/backoffice/states', { token: admin }, {
    states: [{ key: 'new', label: 'New', is_initial: true }, { key: 'new', label: 'Again' }, { key: 'odd', label: 'Odd', is_initial: true, is_final: true }],
    transitions: [{ from_state: 'new', to_state: 'gone' }],
  });
  t.equal(bad.status, 400);
  t.equal(bad.body.code, 'STATE_GRAPH_INVALID');
  t.match(bad.body.problems.join('\n'), /appears twice[\s\S]*cannot be both initial and final[\s\S]*exactly one state must be initial[\s\S]*no state gone[\s\S]*state assigned holds occurrences/);
  t.same((await a.call('GET', '/api/backoffice/states', { token: staff })).body.states.map((s: { key: string }) => s.key), ['submitted', 'assigned', 'closed'], 'unchanged');
  const next = await a.submit('acme', report(type.id));
  t.equal(next.body.state, 'submitted', 'new reports start in the initial state');
});

t.test('two staff moving one occurrence at once: the row lock orders them, the stale one gets 409', async (t) => {
  const { tp, admin, staff } = await occurrencesPlatform(t);
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });
  const one = (await a.submit('acme', report(type.id))).body;
  const answers = await Promise.all([
    a.transition(staff, one.id, { to_state: 'triaged', expected_state: 'submitted' }),
    a.transition(admin, one.id, { to_state: 'rejected', expected_state: 'submitted' }),
  ]);
  t.same(answers.map((r) => r.status).sort(), [200, 409], 'one wins, the other sees the change');
  t.equal(answers.find((r) => r.status === 409)!.body.code, 'STATE_CHANGED');
  const detail = (await a.call('GET', `/api/backoffice/occurrences/${one.id}`, { token: staff })).body;
  t.equal(detail.history.length, 2, 'one change recorded');
  t.equal(detail.state, answers.find((r) => r.status === 200)!.body.state);
});

t.test('GraphQL: transitionOccurrence as the transition_state route', async (t) => {
  const { tp, admin, staff, member } = await occurrencesPlatform(t);
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });
  const first = (await a.submit('acme', report(type.id, { title: 'First' }))).body;
  const second = (await a.submit('acme', report(type.id, { title: 'Second' }))).body;
  const gql = (query: string, token?: string) => tp.request({ method: 'POST', url: '/graphql', token, tenant: 'acme', payload: { query } });
  const move = (id: string | number, input: string, token = staff) =>
    gql(`mutation { transitionOccurrence(id: "${id}", input: {${input}}) { id state duplicateOfId duplicateOf { id title } } }`, token);

  const moved = await move(first.id, 'toState: "triaged", comment: "seen", expectedState: "submitted"');
  t.notOk(moved.body.errors, JSON.stringify(moved.body.errors));
  t.same(moved.body.data.transitionOccurrence, { id: String(first.id), state: 'triaged', duplicateOfId: null, duplicateOf: null });
  const detail = (await a.call('GET', `/api/backoffice/occurrences/${first.id}`, { token: staff })).body;
  t.same(detail.history.at(-1), { ...detail.history.at(-1), from_state: 'submitted', to_state: 'triaged', comment: 'seen', actor: 'acme-staff' }, 'recorded in the history');

  const code = (body: { errors?: { extensions: { code: string } }[] }) => body.errors?.[0]?.extensions.code;
  const refused = await move(first.id, 'toState: "resolved"');
  t.equal(code(refused.body), 'TRANSITION_NOT_ALLOWED');
  t.match(refused.body.errors[0].message, /No transition from triaged to resolved/);
  t.equal(code((await move(first.id, 'toState: "in_progress", expectedState: "submitted"')).body), 'STATE_CHANGED');
  t.equal(code((await move(second.id, 'toState: "duplicate"')).body), 'VALIDATION_FAILED', 'duplicate needs duplicateOfId');
  t.equal(code((await move(second.id, `toState: "triaged", duplicateOfId: "${first.id}"`)).body), 'VALIDATION_FAILED');
  t.equal(code((await move(987654, 'toState: "triaged"')).body), 'OCCURRENCE_NOT_FOUND');
  t.equal(code((await move('x', 'toState: "triaged"')).body), 'BAD_USER_INPUT', 'an id that is no occurrence id');
  t.equal(code((await move(second.id, 'toState: "Not A Key"')).body), 'BAD_USER_INPUT');

  const dup = await move(second.id, `toState: "duplicate", duplicateOfId: "${first.id}", comment: "same hole"`, admin);
  t.same(dup.body.data.transitionOccurrence, { id: String(second.id), state: 'duplicate', duplicateOfId: String(first.id), duplicateOf: { id: String(first.id), title: 'First' } }, 'an admin is staff too');
  const events = await eventsOf(tp, admin, 'occurrence.state_changed', 2);
  t.same(events.map((e: { data: { to_state: string; actor: string } }) => [e.data.to_state, e.data.actor]).sort(), [['duplicate', 'acme-admin'], ['triaged', 'acme-staff']], 'the same events');

  t.equal(code((await move(first.id, 'toState: "in_progress"', member)).body), 'ROLE_REQUIRED', 'a member without staff role');
  t.equal(code((await gql(`mutation { transitionOccurrence(id: "${first.id}", input: {toState: "in_progress"}) { id } }`)).body), 'UNAUTHENTICATED');
});
