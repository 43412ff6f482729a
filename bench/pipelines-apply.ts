// Declarative apply benchmark: N Source documents (each with a credential and
// two streams) applied in one POST /apply, against the same sources made
// through REST in the same run (POST /sources then two POST .../streams each,
// sequentially: what a script without apply does); then the dry-run of the
// same documents once they exist, without their credential values (which are
// never compared: given, they always plan a change), every one noop (the plan
// compares config and streams), in JSON and in YAML. Run with
// `npm run bench:pipelines-apply` (a throwaway Postgres is started).
// BENCH_DOCS (100), BENCH_RUNS (3) tune it.
import { performance } from 'node:perf_hooks';
import YAML from 'yaml';
import { startTestPlatform, tenantWithAdmin } from '../test/harness.ts';

const DOCS = Number(process.env.BENCH_DOCS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const teardowns: (() => unknown)[] = [];
const tap = { teardown: (fn: () => unknown) => void teardowns.push(fn) };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

const spec = (name: string) => ({
  pattern_id: 'http_json',
  source_config: { url: `https://api.example.com/${name}`, records_path: 'data' },
  credential_values: { api_key: `key-${name}` }, credential_name: `${name} key`,
  streams: [{ name: 'records', primary_key: ['id'] }, { name: 'more' }],
});
const docs = (prefix: string) => Array.from({ length: DOCS }, (_, i) => ({ apiVersion: 'agent-platform/v1', kind: 'Source', metadata: { name: `${prefix}_${i}` }, spec: spec(`${prefix}_${i}`) }));

try {
  const tp = await startTestPlatform(tap, { env: { LOG_LEVEL: 'silent' } });
  const { token } = await tenantWithAdmin(tp, 'bench');
  const call = async (method: string, url: string, payload?: unknown, headers?: Record<string, string>) => {
    const response = await tp.request({ method, url, token, tenant: 'bench', payload, headers });
    if (response.status >= 400) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(response.body).slice(0, 500)}`);
    return response.body;
  };
  const timed = async (fn: () => Promise<unknown>) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  const rest: number[] = [];
  const apply: number[] = [];
  const dryJson: number[] = [];
  const dryYaml: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    rest.push(await timed(async () => {
      for (const doc of docs(`rest${run}`)) {
        const { streams, ...source } = doc.spec;
        const created = await call('POST', '/api/v1/sources', { name: doc.metadata.name, ...source });
        for (const stream of streams) await call('POST', `/api/v1/sources/${created.id}/streams`, stream);
      }
    }));
    const declared = docs(`decl${run}`);
    apply.push(await timed(() => call('POST', '/api/v1/apply', { docs: declared })));
    const kept = declared.map(({ spec: { credential_values: _values, credential_name: _name, ...rest }, ...doc }) => ({ ...doc, spec: rest }));
    dryJson.push(await timed(async () => {
      const plan = await call('POST', '/api/v1/apply/dry-run', { docs: kept });
      if (plan.results.some((r: { action: string }) => r.action !== 'noop')) throw new Error('expected every document to be noop');
    }));
    const yaml = kept.map((doc) => YAML.stringify(doc)).join('---\n');
    dryYaml.push(await timed(() => call('POST', '/api/v1/apply/dry-run', yaml, { 'content-type': 'application/yaml' })));
  }
  const [r, a, j, y] = [median(rest), median(apply), median(dryJson), median(dryYaml)];
  console.log(`pipelines-apply bench: ${DOCS} Source documents (a vault credential and 2 streams each), median of ${RUNS} runs`);
  console.log(`  REST (POST /sources + 2 POST streams each, sequential): ${round(r)} ms (${round(r / DOCS, 2)} ms/source)  [baseline]`);
  console.log(`  POST /apply (one transaction):                         ${round(a)} ms (${round(a / DOCS, 2)} ms/doc)  ratio ${round(a / r, 2)}`);
  console.log(`  POST /apply/dry-run, all noop, JSON:                    ${round(j)} ms (${round(j / DOCS, 2)} ms/doc)  ratio ${round(j / r, 2)}`);
  console.log(`  POST /apply/dry-run, all noop, YAML stream:             ${round(y)} ms (${round(y / DOCS, 2)} ms/doc)  ratio ${round(y / r, 2)}`);
} finally {
  for (const teardown of teardowns.reverse()) await teardown();
}
