// Identity's pure matching parts: the JavaScript normalizers (canonical order,
// empty is null, scalars only), the policy spec's checks and fingerprint, and
// how candidate pairs become merges (matching/matcher.ts mergesOf). That the
// SQL normalizers agree with these is normalizers.test.ts's (it needs PostgreSQL).
import t from 'tap';
import type { IdentityPolicyVersion, IdentityRecord } from '../api.ts';
import { mergesOf } from '../matching/matcher.ts';
import { canonicalNormalizers, normalize, normalizeSql, NORMALIZER_PATTERN } from '../matching/normalizers.ts';
import { canonicalSpec, fingerprintOf } from '../matching/policy-spec.ts';

const codeOf = (err: unknown) => (err as { output?: { statusCode?: number; payload?: { code?: string } } }).output;

t.test('normalize: accents, case, whitespace, phone and e-mail', async (t) => {
  t.equal(normalize('José  ÁLVAREZ ', ['case', 'accents', 'whitespace']), 'jose alvarez');
  t.equal(normalize('+351 912 345 678', ['phone:351']), normalize('912 345 678', ['phone:351']));
  t.equal(normalize('0161 496 0000', ['phone:44']), '441614960000');
  t.equal(normalize('J.Alvarez+x@GMAIL.com', ['email:gmail']), 'jalvarez@gmail.com');
  t.equal(normalize({ a: 1 }, ['case']), null);
  t.throws(() => normalizeSql('x', ['phone:abc']), /Unknown normalizer/);
});

t.test('normalize: both compositions of an accent are one value; accented capitals lower without losing the accent', async (t) => {
  t.equal(normalize('jose\u0301', []), 'josé', 'NFC first, whatever the normalizers');
  t.equal(normalize('ÉCOLE', ['case']), 'école');
  t.equal(normalize('École', ['accents']), 'Ecole');
  t.equal(normalize('İstanbul', ['case']), 'İstanbul', 'no locale rules: İ is not in the table and not ASCII');
  t.equal(normalize('ÆRØ', ['case', 'accents']), 'Æro', 'Ø is in the accent table; Æ is in neither table, so it stays');
});

t.test('normalize: whitespace is an explicit class, runs become one space, ends are trimmed; empty is null', async (t) => {
  t.equal(normalize(' a\t\n\u00a0b  ', ['whitespace']), 'a b');
  t.equal(normalize('a\u2003b', ['whitespace']), 'a\u2003b', 'an em space is not in the class');
  t.equal(normalize('   ', ['whitespace']), null);
  t.equal(normalize('', []), null);
  t.equal(normalize(null, []), null);
  t.equal(normalize(undefined, ['case']), null);
  t.equal(normalize(['a'], []), null, 'arrays are null, as in SQL');
  t.equal(normalize(42, []), '42');
  t.equal(normalize(true, ['case']), 'true');
});

t.test('normalize: phones keep their digits; + and 00 mark an international number; a country code replaces a leading 0', async (t) => {
  t.equal(normalize('(+44) 161 496 0000', ['phone']), '441614960000');
  t.equal(normalize('00351912345678', ['phone:1']), '351912345678');
  t.equal(normalize('912-345-678', ['phone']), '912345678');
  t.equal(normalize('912-345-678', ['phone:351']), '351912345678');
  t.equal(normalize('no digits', ['phone']), null);
});

t.test('normalize: e-mails are trimmed and lowered; gmail drops dots and +tags for gmail.com and googlemail.com only', async (t) => {
  t.equal(normalize(' Jose.Alvarez+News@GMail.com ', ['email']), 'jose.alvarez+news@gmail.com');
  t.equal(normalize(' Jose.Alvarez+News@GMail.com ', ['email:gmail']), 'josealvarez@gmail.com');
  t.equal(normalize('a.b+c@googlemail.com', ['email:gmail']), 'ab@gmail.com');
  t.equal(normalize('A.B+C@example.com', ['email:gmail']), 'a.b+c@example.com');
  t.equal(normalize('no-at-sign', ['email:gmail']), 'no-at-sign');
});

t.test('canonicalNormalizers: one canonical order whatever the rule lists; unknown or repeated names are 400s', async (t) => {
  t.same(canonicalNormalizers(['phone:351', 'case', 'email', 'whitespace', 'accents']), ['whitespace', 'accents', 'case', 'email', 'phone:351']);
  t.same(canonicalNormalizers(), []);
  t.equal(normalize('A@B.COM ', ['email', 'whitespace']), normalize('A@B.COM ', ['whitespace', 'email']));
  for (const bad of ['phone:abc', 'phone:0', 'phone:1234', 'email:yahoo', 'CASE', 'lower']) {
    t.equal(NORMALIZER_PATTERN.test(bad), false, bad);
    try {
      canonicalNormalizers([bad]);
      t.fail(`${bad} was accepted`);
    } catch (err) {
      t.match(codeOf(err), { statusCode: 400, payload: { code: 'IDENTITY_NORMALIZER_UNKNOWN' } }, bad);
      t.equal((err as Error).message, `Unknown normalizer ${JSON.stringify(bad)}: use case, accents, whitespace, phone, phone:<country code>, email or email:gmail`);
    }
  }
  t.throws(() => canonicalNormalizers(['phone', 'phone:44']), { message: 'A normalizer is listed twice' });
});

t.test('normalizeSql: ASCII values skip NFC and translate; an empty result is null', async (t) => {
  const sql = normalizeSql('name', ['accents', 'case']);
  t.match(sql, /^nullif\(CASE WHEN octet_length\(\(name\)::text\) = char_length\(\(name\)::text\) THEN lower\(\(name\)::text COLLATE "C"\) ELSE /);
  t.match(sql, /normalize\(\(name\)::text, NFC\)/);
  t.match(sql, /, ''\)$/);
  t.equal(normalizeSql('v', []), "nullif(CASE WHEN octet_length((v)::text) = char_length((v)::text) THEN (v)::text ELSE normalize((v)::text, NFC) END, '')");
});

t.test('canonicalSpec: normalizers in canonical order, the default block size, and the rule checks', async (t) => {
  const spec = canonicalSpec({
    rules: [{ name: 'mail', kind: 'normalized', fields: [{ field: 'email', normalizers: ['email', 'whitespace'] }] },
      { name: 'id', kind: 'exact', fields: [{ field: 'id' }] }],
    blocking_keys: [{ field: 'city', normalizers: ['case', 'accents'], prefix: 3 }],
  }, 500);
  t.same(spec, {
    rules: [{ name: 'mail', kind: 'normalized', fields: [{ field: 'email', normalizers: ['whitespace', 'email'] }] },
      { name: 'id', kind: 'exact', fields: [{ field: 'id', normalizers: [] }] }],
    blocking_keys: [{ field: 'city', normalizers: ['accents', 'case'], prefix: 3 }],
    max_block_size: 500,
  });
  const refused: [Parameters<typeof canonicalSpec>[0], string, string][] = [
    [{ rules: [{ name: 'a', kind: 'exact', fields: [{ field: 'x' }] }, { name: 'a', kind: 'exact', fields: [{ field: 'y' }] }] }, 'IDENTITY_POLICY_INVALID', 'Two rules are named a'],
    [{ rules: [{ name: 'a', kind: 'exact', fields: [{ field: 'x', normalizers: ['case'] }] }] }, 'IDENTITY_POLICY_INVALID', 'Field x of an exact rule takes no normalizers: use a normalized rule'],
    [{ rules: [{ name: 'a', kind: 'normalized', fields: [{ field: 'x', threshold: 0.5 }] }] }, 'IDENTITY_POLICY_INVALID', 'Field x: only fuzzy rules take a threshold'],
    [{ rules: [{ name: 'f', kind: 'fuzzy', fields: [{ field: 'x' }] }] }, 'IDENTITY_POLICY_INVALID', 'Fuzzy rule f needs a field with a threshold'],
    [{ rules: [{ name: 'f', kind: 'fuzzy', fields: [{ field: 'x', threshold: 0.5 }] }] }, 'IDENTITY_POLICY_UNBLOCKED',
      'Fuzzy rule f needs blocking keys (or a field without threshold that must be equal), so matching stays sub-quadratic'],
  ];
  for (const [input, code, message] of refused) {
    try {
      canonicalSpec(input, 100);
      t.fail(`${message}: accepted`);
    } catch (err) {
      t.match(codeOf(err), { statusCode: 400, payload: { code } }, message);
      t.equal((err as Error).message, message);
    }
  }
  t.ok(canonicalSpec({ rules: [{ name: 'f', kind: 'fuzzy', fields: [{ field: 'x', threshold: 0.5 }, { field: 'zip' }] }] }, 100),
    'a fuzzy rule with an equal field needs no blocking keys');
});

t.test('fingerprintOf: key order and normalizer order do not matter; rule order does', async (t) => {
  const a = canonicalSpec({ rules: [{ name: 'm', kind: 'normalized', fields: [{ field: 'e', normalizers: ['email', 'whitespace'] }] }, { name: 'i', kind: 'exact', fields: [{ field: 'id' }] }] }, 100);
  const b = canonicalSpec({ max_block_size: 100, rules: [{ fields: [{ normalizers: ['whitespace', 'email'], field: 'e' }], kind: 'normalized', name: 'm' }, { kind: 'exact', name: 'i', fields: [{ field: 'id' }] }] } as never, 7);
  t.match(fingerprintOf(a), /^[0-9a-f]{64}$/);
  t.equal(fingerprintOf(a), fingerprintOf(b));
  t.not(fingerprintOf(a), fingerprintOf({ ...a, rules: [...a.rules].reverse() }));
  t.not(fingerprintOf(a), fingerprintOf({ ...a, max_block_size: 101 }));
});

const policy = (rules: IdentityPolicyVersion['rules']): IdentityPolicyVersion => ({ id: 'p', version: 1, fingerprint: 'f', rules, blocking_keys: [], max_block_size: 100 });
const records = (...refs: string[]): IdentityRecord[] => refs.map((ref) => ({ ref, values: {} }));
const pair = (rule: number, a: number, b: number, score = 1) => ({ kind: 'pair' as const, rule, a, b, score, block: null });

t.test('mergesOf: rules in policy order, the most similar pairs first; a pair already in one cluster is no merge', async (t) => {
  const rules: IdentityPolicyVersion['rules'] = [
    { name: 'email', kind: 'normalized', fields: [{ field: 'email', normalizers: ['email'] }] },
    { name: 'name', kind: 'fuzzy', fields: [{ field: 'name', threshold: 0.5 }] },
  ];
  const match = mergesOf(policy(rules), records('r0', 'r1', 'r2', 'r3', 'r4'), [
    pair(1, 0, 1, 0.61234), pair(1, 1, 2, 0.9), pair(0, 0, 1), pair(1, 0, 2, 0.7),
  ]);
  t.same(match.pairs, [
    { a: 'r0', b: 'r1', rule: 'email' },
    { a: 'r1', b: 'r2', rule: 'name', score: 0.9 },
  ], 'the email rule reports r0~r1; r0~r2 joins nothing new once r1~r2 merged');
  t.same(match.clusters, [['r0', 'r1', 'r2']], 'transitive; singletons are no cluster');
  t.same(match.skippedBlocks, []);
});

t.test('mergesOf: fuzzy scores round to 3 decimals; skipped blocks are reported with their size', async (t) => {
  const rules: IdentityPolicyVersion['rules'] = [{ name: 'name', kind: 'fuzzy', fields: [{ field: 'name', threshold: 0.5 }] }];
  const match = mergesOf(policy(rules), records('a', 'b', 'c', 'd'), [
    pair(0, 2, 3, 0.66666), { kind: 'skipped', rule: 0, a: 0, b: 250, score: 0, block: 'oslo' }, { kind: 'skipped', rule: 0, a: 0, b: 7, score: 0, block: null },
  ]);
  t.same(match.pairs, [{ a: 'c', b: 'd', rule: 'name', score: 0.667 }]);
  t.same(match.clusters, [['c', 'd']]);
  t.same(match.skippedBlocks, [{ key: 'oslo', size: 250 }, { key: '', size: 7 }]);
  t.same(mergesOf(policy([]), records('x'), []), { pairs: [], clusters: [], skippedBlocks: [] });
});

t.test('mergesOf: cluster refs in input order, and equal scores merge in record order', async (t) => {
  const rules: IdentityPolicyVersion['rules'] = [{ name: 'id', kind: 'exact', fields: [{ field: 'id' }] }];
  const match = mergesOf(policy(rules), records('a', 'b', 'c', 'd', 'e'), [pair(0, 3, 4), pair(0, 1, 4), pair(0, 0, 2)]);
  t.same(match.pairs, [{ a: 'a', b: 'c', rule: 'id' }, { a: 'b', b: 'e', rule: 'id' }, { a: 'd', b: 'e', rule: 'id' }]);
  t.same(match.clusters, [['a', 'c'], ['b', 'd', 'e']]);
});
