// Write-only credential values in an apply document are never compared with
// the stored ones (a plan would confirm a guess): a right guess and a wrong
// one plan identically, as a change named by field; POST /apply performs
// that same plan and writes the values given. Vault and legacy_inline modes.
import t from 'tap';
import { sourcesPlatform } from '../../pipelines-sources/test/helpers.ts';

const SECRET = 'hunter2-write-only-secret';
const API = 'agent-platform/v1';

const doc = (key: string, name = 'shop') => ({
  apiVersion: API, kind: 'Source', metadata: { name },
  spec: { pattern_id: 'http_json', source_config: { url: 'https://api.example.com/items' }, credential_values: { api_key: key }, credential_name: `${name} key` },
});

for (const mode of ['vault', 'legacy_inline']) {
  t.test(`${mode}: right and wrong guesses of a stored credential plan identically`, async (t) => {
    const { asAcme } = await sourcesPlatform(t, { SOURCE_CREDENTIAL_MODE: mode });
    const withMode = (d: ReturnType<typeof doc>) => {
      if (mode === 'vault') return d;
      const { credential_name: _name, ...spec } = d.spec;
      return { ...d, spec };
    };
    const created = await asAcme('POST', '/api/v1/apply', { docs: [withMode(doc(SECRET))] });
    t.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.results[0].id;

    const right = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [withMode(doc(SECRET))] });
    const wrong = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [withMode(doc('not-the-secret'))] });
    t.equal(right.status, 200);
    t.same(right.body, wrong.body, 'the same plan whatever the value');
    t.match(right.body.results[0], { action: 'patch', id, changes: ['spec.credential_values.api_key'] });
    t.notMatch(JSON.stringify(right.body), /hunter2|not-the-secret/);

    // The apply performs the plan the dry-run showed: the given values are written.
    const before = (await asAcme('GET', `/api/v1/sources/${id}`)).body;
    const applied = await asAcme('POST', '/api/v1/apply', { docs: [withMode(doc(SECRET))] });
    t.equal(applied.status, 200);
    t.match(applied.body.results[0], { action: 'patch', id, changes: ['spec.credential_values.api_key'] });
    const after = (await asAcme('GET', `/api/v1/sources/${id}`)).body;
    t.same(after.credential_fields_set, ['api_key']);
    if (mode === 'vault') t.not(after.credential_ref, before.credential_ref, 'a new vault credential, as PATCH /sources makes');
    t.notMatch(JSON.stringify(applied.body), /hunter2/);

    // Without credential values the document compares as usual.
    const { credential_values: _values, credential_name: _name, ...bare } = doc(SECRET).spec;
    const noop = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [{ ...doc(SECRET), spec: bare }] });
    t.match(noop.body.results[0], { action: 'noop', id });
  });
}
