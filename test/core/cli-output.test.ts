// The `platform` command's human output (without --json), through the real
// CLI: dates as ISO 8601, lists as aligned tables, one record as `key: value`
// lines with aligned values; --json stays the result as JSON.
import t from 'tap';
import type tap from 'tap';
import { runCli, startTestPlatform, type TestPlatform } from '../harness.ts';
import { formatHuman } from '../../core/cli/format.ts';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function human(t: Pick<typeof tap, 'equal'>, tp: TestPlatform, args: string[]): Promise<string[]> {
  const result = await runCli(args, { platform: tp });
  t.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
  t.equal(result.stderr, '', 'nothing on stderr');
  return result.stdout.replace(/\n$/, '').split('\n');
}

/** The columns of an aligned table line: cells are separated by two or more spaces. */
const cells = (line: string) => line.split(/ {2,}/);

t.test('human output: a record as aligned lines, a list as a table, dates as ISO 8601', async (t) => {
  const tp = await startTestPlatform(t);

  const created = await human(t, tp, ['tenants', 'create', 'cli-out', '--display-name', 'CLI Output Inc']);
  const fields = Object.fromEntries(created.map((line) => /^(\S+): +(.*)$/.exec(line)!.slice(1)));
  t.equal(fields.id, 'cli-out');
  t.equal(fields.display_name, 'CLI Output Inc');
  t.match(fields.created_at, ISO, 'a date as ISO 8601, not Date#toString');
  t.equal(fields['default_client.name'], 'default', 'a nested record as dotted keys');
  t.match(fields['default_client.client_key'], /^ck_[0-9a-f]{24}$/);
  t.same(new Set(created.map((line) => /^\S+: +/.exec(line)![0].length)).size, 1, 'the values start in one column');
  await human(t, tp, ['tenants', 'create', 'cli-out-2']);

  const tenants = await human(t, tp, ['tenants', 'list']);
  t.same(cells(tenants[0]), ['id', 'display_name', 'created_at'], 'a header of the columns');
  t.same(tenants.slice(1, 3).map((line) => cells(line).slice(0, 2)), [['cli-out', 'CLI Output Inc'], ['cli-out-2', 'cli-out-2']]);
  for (const line of tenants.slice(1, 3)) t.match(cells(line)[2], ISO);
  const column = tenants[0].indexOf('created_at');
  t.ok(tenants.slice(1, 3).every((line) => ISO.test(line.slice(column))), 'every row\'s dates start under their header');
  t.equal(tenants.at(-1), '(1-2 of 2)', 'where the page sits in the list');

  // The key of the tenant's default client is listed.
  const key = fields['default_client.client_key'];
  const clients = await human(t, tp, ['clients', 'list', '--tenant', 'cli-out']);
  t.same(cells(clients[0]), ['id', 'client_key', 'name', 'created_at']);
  t.same(cells(clients[1]).slice(1, 3), [key, 'default']);

  const json = await runCli(['tenants', 'list', '--json'], { platform: tp });
  t.match(JSON.parse(json.stdout), { items: [{ id: 'cli-out', created_at: ISO }], total: 2 }, '--json is unchanged');
});

t.test('the formatter: empty lists, long and multi-line cells, lists inside a record', async (t) => {
  t.equal(formatHuman({ items: [], total: 0, skip: 0, limit: 50 }), '(none)\n(0 of 0)');
  t.equal(formatHuman(undefined), '', 'a command that returns nothing prints nothing');
  const long = formatHuman([{ a: 'x'.repeat(100), b: 'two\nlines' }]).split('\n');
  t.equal(long.length, 2, 'a cell never breaks its row');
  t.equal(cells(long[1])[0], `${'x'.repeat(59)}…`, 'a long cell is cut');
  t.equal(cells(long[1])[1], 'two lines');
  t.equal(
    formatHuman({ status: 'synced', at: new Date('2026-01-02T03:04:05Z'), tags: ['a', 'b'], functions: [{ name: 'f', action: 'create' }] }),
    'status: synced\nat:     2026-01-02T03:04:05.000Z\ntags:   a, b\n\nfunctions:\n  name  action\n  f     create',
  );
});
