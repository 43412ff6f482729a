// The anonymous rate limit cannot be reset by naming made-up tenants: the
// per-tenant bucket is taken only for a tenant that exists, and the
// per-address bucket, taken first, is the same whatever tenant is named.
import t from 'tap';
import { api, occurrencesPlatform } from './helpers.ts';

const MADE_UP = 10_050;
/** The limiters read the platform clock: frozen, no token comes back however long the flood takes. */
const frozen = () => {
  const at = new Date();
  return { clock: { now: () => at } };
};

/** Sends `count` requests, `batch` at a time, and counts the answers by status. */
async function flood(count: number, batch: number, send: (i: number) => Promise<{ status: number }>) {
  const statuses = new Map<number, number>();
  for (let start = 0; start < count; start += batch) {
    const answers = await Promise.all(Array.from({ length: Math.min(batch, count - start) }, (_, k) => send(start + k)));
    for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  return Object.fromEntries(statuses);
}

t.test('10,050 requests naming made-up tenants do not give a throttled address its tenant bucket back', async (t) => {
  // The per-address limit is set high, so that only the per-tenant bucket can answer the last request.
  const { tp } = await occurrencesPlatform(t, { services: frozen(), occurrences: { publicRatePerMinute: 3, publicAddressRatePerMinute: 100_000, trustProxy: true } });
  const a = api(tp);
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const types = () => a.call('GET', '/api/occurrence-types', { tenant: 'acme', headers: from('198.51.100.9') });
  for (let i = 0; i < 3; i++) t.equal((await types()).status, 200);
  t.equal((await types()).status, 429, 'the address is throttled in acme');

  const answers = await flood(MADE_UP, 100, (i) => a.call('GET', '/api/occurrence-types', { tenant: `made-up-${i}`, headers: from('198.51.100.9') }));
  t.same(answers, { 404: MADE_UP }, 'each made-up tenant is unknown');

  const after = await types();
  t.equal(after.status, 429, 'still throttled in acme');
  t.equal(after.body.code, 'RATE_LIMITED');
  t.equal((await a.call('GET', '/api/occurrence-types', { tenant: 'acme', headers: from('198.51.100.10') })).status, 200, 'another address is served');
});

t.test('the per-address limit counts requests whatever tenant they name, made-up ones included', async (t) => {
  const { tp } = await occurrencesPlatform(t, { services: frozen(), occurrences: { publicRatePerMinute: 100, publicAddressRatePerMinute: 5, trustProxy: true } });
  const a = api(tp);
  const from = { 'x-forwarded-for': '198.51.100.20' };
  for (let i = 0; i < 4; i++) t.equal((await a.call('GET', '/api/occurrence-types', { tenant: `nowhere-${i}`, headers: from })).status, 404);
  t.equal((await a.call('GET', '/api/occurrence-types', { tenant: 'acme', headers: from })).status, 200, 'the fifth token');
  const refused = await a.call('GET', '/api/occurrence-types', { tenant: 'acme', headers: from });
  t.equal(refused.status, 429);
  t.equal(refused.body.code, 'RATE_LIMITED');
  t.ok(Number(refused.headers['retry-after']) >= 1);
  t.equal((await a.call('GET', '/api/occurrence-types', { tenant: 'nowhere-9', headers: from })).status, 429, 'refused before the tenant is looked up');
});
