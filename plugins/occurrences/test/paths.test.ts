// Every path of the plugin answers the same with and without the trailing
// slash (the router strips it): the same status and, for reads, the same body.
import t from 'tap';
import { api, occurrencesPlatform, report } from './helpers.ts';

t.test('each 4.7 path, with and without the trailing slash', async (t) => {
  const { tp, admin, staff } = await occurrencesPlatform(t);
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });
  const occurrence = (await a.submit('acme', report(type.id))).body;
  const template = (await a.call('POST', '/api/backoffice/templates', { token: admin }, { name: 'Note', channel: 'note', body: 'Seen {{reference}}' })).body;

  const reads: [string, string, { token?: string; tenant?: string }][] = [
    ['GET', '/api/backoffice/occurrences', { token: staff }],
    ['GET', '/api/backoffice/templates', { token: staff }],
    ['GET', `/api/backoffice/templates/for_occurrence?occurrence_id=${occurrence.id}`, { token: staff }],
    ['GET', '/api/backoffice/states', { token: staff }],
    ['GET', `/api/backoffice/states/allowed_transitions?occurrence_id=${occurrence.id}`, { token: staff }],
    ['GET', `/api/occurrence-types/${type.id}`, { tenant: 'acme' }],
  ];
  for (const [method, url, auth] of reads) {
    const [path, query] = url.split('?');
    const bare = await a.call(method, url, auth);
    const slashed = await a.call(method, `${path}/${query ? `?${query}` : ''}`, auth);
    t.equal(bare.status, 200, `${method} ${path}`);
    t.equal(slashed.status, 200, `${method} ${path}/`);
    t.same(slashed.body, bare.body, `${method} ${path}/ answers as ${path}`);
  }

  const writes: [string, unknown, number][] = [
    ['/api/occurrences/check_duplicates', report(type.id), 200],
    ['/api/backoffice/templates/preview', { occurrence_id: occurrence.id, template_id: template.id }, 200],
    ['/api/backoffice/templates/apply', { occurrence_id: occurrence.id, template_id: template.id }, 201],
    ['/api/occurrences/public_submit', report(type.id), 201],
  ];
  for (const [path, body, status] of writes) {
    for (const url of [path, `${path}/`]) {
      t.equal((await a.call('POST', url, { token: staff, tenant: 'acme' }, body)).status, status, `POST ${url}`);
    }
  }
  t.equal((await a.call('POST', `/api/occurrences/${occurrence.id}/transition_state`, { token: staff }, { to_state: 'triaged' })).status, 200);
  t.equal((await a.call('POST', `/api/occurrences/${occurrence.id}/transition_state/`, { token: staff }, { to_state: 'in_progress' })).status, 200);
});
