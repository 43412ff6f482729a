// The events CLI, run as a child process against the platform's database;
// the running server dispatches what it emits and runs the backfills it asks for.
import t from 'tap';
import { runCli, type TestPlatform } from 'agent-platform/sdk/testing';
import { asCloudEvent, dispatched, emit, eventsFixture, executionsOf, MANIFEST, until } from './helpers.ts';

const cli = (tp: TestPlatform, args: string[]) => runCli(args, { platform: tp, env: { PLATFORM_MANIFEST: MANIFEST } });

t.test('triggers create, list, test and backfill; events emit and tail', async (t) => {
  const { tp, token } = await eventsFixture(t);
  await emit(tp, token, 'order.created', { id: 1, total: 500 });
  await dispatched(tp, token);

  const definition = JSON.stringify({ name: 'big-orders', event_type: 'order.*', target_name: 'record', event_filter: { 'data.total': [{ numeric: ['>', 100] }] } });
  const created = await cli(tp, ['triggers', 'create', '--tenant', 'acme', '--definition', definition, '--json']);
  t.equal(created.code, 0, created.stderr);
  t.match(JSON.parse(created.stdout), { name: 'big-orders', kind: 'reactive', active: true });
  const invalid = await cli(tp, ['triggers', 'create', '--tenant', 'acme', '--definition', JSON.stringify({ name: 'x', event_type: 'a*b', target_name: 'record' })]);
  t.equal(invalid.code, 1);
  t.match(invalid.stderr, /event_type: .* \(VALIDATION_FAILED\)/, 'the same validation as the API');

  const listed = await cli(tp, ['triggers', 'list', '--tenant', 'acme', '--json']);
  t.match(JSON.parse(listed.stdout), { total: 1, items: [{ name: 'big-orders' }] });
  const tested = await cli(tp, ['triggers', 'test', 'big-orders', '--tenant', 'acme', '--type', 'order.created', '--data', '{"total": 50}', '--json']);
  t.match(JSON.parse(tested.stdout), { matched: false, filter_result: { 'data.total': { matched: false, value: 50 } } });

  const backfilled = await cli(tp, ['triggers', 'backfill', 'big-orders', '--tenant', 'acme', '--json']);
  t.equal(backfilled.code, 0, backfilled.stderr);
  t.match(JSON.parse(backfilled.stdout), { matched: 1, dispatched: 1, errors: [] }, 'the server ran the backfill the CLI asked for');
  t.match(backfilled.stderr, /^(backfill big-orders: waiting for the server \(\d+ s\)\n)*backfill big-orders: done\n$/, 'its progress on stderr');
  await until(async () => (await executionsOf(tp, token, 'record')).length === 1, 'the backfilled workflow');
  const refused = await cli(tp, ['triggers', 'backfill', 'nope', '--tenant', 'acme']);
  t.equal(refused.code, 1);
  t.match(refused.stderr, /backfill failed: Trigger not found: nope/);

  const emitted = await cli(tp, ['events', 'emit', '--tenant', 'acme', '--type', 'order.created', '--data', '{"id": 2, "total": 900}', '--json']);
  t.equal(emitted.code, 0, emitted.stderr);
  const { event, seq } = JSON.parse(emitted.stdout);
  asCloudEvent(event);
  t.equal(event.source, '/cli');
  await until(async () => (await executionsOf(tp, token, 'record')).length === 2, 'the server to dispatch what the CLI emitted');

  const tail = await cli(tp, ['events', 'tail', '--tenant', 'acme', '--from-seq', String(seq - 1), '--count', '1', '--interval-ms', '100']);
  t.equal(tail.code, 0, tail.stderr);
  const [line] = tail.stdout.split('\n');
  t.match(JSON.parse(line), { seq, id: event.id, type: 'order.created', dispatched: true });
  t.match(tail.stderr, /\[tail acme\] after seq \d+ · 1 event\(s\)/, 'a progress line');
  const typed = await cli(tp, ['events', 'tail', '--tenant', 'acme', '--from-seq', '0', '--type', 'definition.*', '--count', '1']);
  t.match(JSON.parse(typed.stdout.split('\n')[0]), { seq: 1, type: 'definition.created' });
});
