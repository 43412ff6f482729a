// One budget for the aliases of a whole YAML apply request: an alias bomb
// spread over many documents (each one under any per-document cap) is
// refused with 400 APPLY_TOO_LARGE before its values are built, the server
// answers /health while the body is read (off the event loop), nothing is
// written; ordinary multi-document bodies with aliases still apply. The
// reader's deadline ends a read that runs too long.
import t from 'tap';
import { sourcesPlatform, stored } from '../../pipelines-sources/test/helpers.ts';
import { createYamlReader } from '../request-body/yaml-reader.ts';
import { MAX_ALIAS_VALUES } from '../request-body/yaml-aliases.ts';

const API = 'agent-platform/v1';

/** The 400's payload a read is refused with (undefined when it is not refused). */
async function refusal(read: Promise<unknown>): Promise<Record<string, unknown> | undefined> {
  try {
    await read;
    return undefined;
  } catch (error) {
    return (error as { output: { payload: Record<string, unknown> } }).output.payload;
  }
}
const YAML = { 'content-type': 'application/yaml' };

/** One document whose aliases stand for 1 + 60 + 60·61 + 49·(1 + 60·61) ≈ 183,000 values: under the budget alone. */
function bombDocument(): string {
  const ones = Array(60).fill('1').join(',');
  return [`a: &a [${ones}]`, `b: &b [${Array(60).fill('*a').join(',')}]`, `c: [${Array(49).fill('*b').join(',')}]`].join('\n');
}

t.test('an alias bomb spread over 500 documents is refused before it is built; /health answers meanwhile', async (t) => {
  const { tp, acme } = await sourcesPlatform(t);
  const one = bombDocument();
  const body = Array(500).fill(one).join('\n---\n');
  t.ok(body.length < 300_000, 'a small body');

  // One such document alone is within the budget: it is read (and then is no apply document).
  const alone = await tp.request({ method: 'POST', url: '/api/v1/apply/dry-run', token: acme.token, tenant: 'acme', payload: one, headers: YAML });
  t.equal(alone.status, 400);
  t.equal(alone.body.code, 'VALIDATION_FAILED', 'read whole, then refused as an envelope');

  for (const url of ['/api/v1/apply/dry-run', '/api/v1/apply']) {
    let answered = false;
    const bomb = tp.request({ method: 'POST', url, token: acme.token, tenant: 'acme', payload: body, headers: YAML }).finally(() => {
      answered = true;
    });
    // Spaced probes (a tight loop of injections would starve the bomb's own I/O).
    const health: number[] = [];
    while (!answered) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const probe = await tp.request({ method: 'GET', url: '/health' });
      if (!answered) health.push(probe.status);
    }
    const refused = await bomb;
    t.ok(health.length > 0 && health.every((status) => status === 200), `${url}: /health answered while the body was read`);
    t.equal(refused.status, 400, url);
    t.equal(refused.body.code, 'APPLY_TOO_LARGE', url);
    t.match(refused.body.message, new RegExp(`more than ${MAX_ALIAS_VALUES} values \\(all documents together\\)`));
    t.notMatch(refused.body.message, /\*a|\*b|lol/, 'no part of the body echoed');
  }
  t.same(await stored(tp, 'SELECT id FROM pipeline_sources'), [], 'nothing written');
});

t.test('a multi-document YAML apply with aliases in each document still applies', async (t) => {
  const { tp, acme, asAcme } = await sourcesPlatform(t);
  // Every document has its own anchors (the same names) and aliases naming them.
  const doc = (name: string) => `apiVersion: ${API}
kind: Source
spec:
  pattern_id: http_json
  source_config: &cfg {url: "https://api.example.com/${name}", records_path: data}
  streams:
    - &records {name: records, primary_key: [id]}
metadata: {name: ${name}, config: *cfg, stream: *records}
`;
  const body = ['one', 'two', 'three'].map(doc).join('---\n');
  const applied = await tp.request({ method: 'POST', url: '/api/v1/apply', token: acme.token, tenant: 'acme', payload: body, headers: YAML });
  t.equal(applied.status, 200, JSON.stringify(applied.body));
  t.match(applied.body.results, [{ name: 'one', action: 'create' }, { name: 'two', action: 'create' }, { name: 'three', action: 'create' }]);
  const source = await asAcme('GET', `/api/v1/sources/${applied.body.results[2].id}`);
  t.equal(source.body.source_config.url, 'https://api.example.com/three');
  const planned = await tp.request({ method: 'POST', url: '/api/v1/apply/dry-run', token: acme.token, tenant: 'acme', payload: body, headers: YAML });
  t.match(planned.body.results, [{ action: 'noop' }, { action: 'noop' }, { action: 'noop' }]);
});

t.test('the reader: a read past its deadline is refused and frees its turn; rules hold in the thread', async (t) => {
  const reader = createYamlReader({ timeoutMs: 1, heapMb: 512, readers: 1 });
  t.teardown(() => reader.close());
  const big = `a:\n${Array(50_000).fill('  - 1').join('\n')}`;
  for (let i = 0; i < 2; i++) {
    t.match(await refusal(reader.read(big, 10)), { statusCode: 400, code: 'APPLY_TOO_LARGE', message: /takes longer than/ });
  }

  const roomy = createYamlReader({ timeoutMs: 60_000, heapMb: 512, readers: 1 });
  t.teardown(() => roomy.close());
  t.same(await roomy.read('a: &x [1, 2]\nb: *x\n---\nc: 2024-01-05\n', 10), [{ a: [1, 2], b: [1, 2] }, { c: '2024-01-05' }]);
  t.match(await refusal(roomy.read('a: 1\na: 2\n', 10)), { code: 'APPLY_YAML_INVALID', message: /a key appears twice/ });
  t.match(await refusal(roomy.read('a: &a [1, *a]\n', 10)), { code: 'APPLY_YAML_INVALID', message: /cycle/ });
  t.same(await roomy.read('__proto__: {x: 1}\n', 10), [JSON.parse('{"__proto__": {"x": 1}}')], 'a __proto__ key is an ordinary key');
});
