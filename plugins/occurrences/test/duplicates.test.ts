// Duplicate detection: the three policies at
// submission, the pre-submission check with its suggested action and
// ranking, and what is not a duplicate: outside the radius, outside the
// window, of another type, or in a final state.
import t from 'tap';
import { api, eventsOf, leaksPersonal, occurrencesPlatform, report, rows } from './helpers.ts';

// About 1.1 m per 0.00001 degree of latitude.
const at = (metresNorth: number) => ({ latitude: 38.7101 + metresNorth / 111_195, longitude: -9.1366 });

t.test('warn creates and lists the similar reports; reject answers 409; allow does not look', async (t) => {
  const { tp, admin } = await occurrencesPlatform(t);
  const a = api(tp);
  const warn = await a.type(admin, { duplicate_policy: 'warn' });
  const reject = await a.type(admin, { duplicate_policy: 'reject' });
  const allow = await a.type(admin, { duplicate_policy: 'allow' });

  const first = await a.submit('acme', report(warn.id));
  t.equal(first.status, 201);
  t.notOk('possible_duplicates' in first.body, 'nothing similar yet');
  const second = await a.submit('acme', report(warn.id, at(20)));
  t.equal(second.status, 201, 'warn: created anyway');
  t.equal(second.body.possible_duplicates.length, 1);
  t.match(second.body.possible_duplicates[0], {
    id: first.body.id, reference: first.body.reference, title: 'Deep pothole on Rua Augusta', state: 'submitted', text_similarity: 1,
  });
  t.ok(Math.abs(second.body.possible_duplicates[0].distance_m - 20) < 0.5, `distance ${second.body.possible_duplicates[0].distance_m} m`);
  t.same(leaksPersonal(second.body), []);
  const [detected] = await eventsOf(tp, admin, 'occurrence.duplicate_detected');
  t.match(detected.data, { occurrence_id: second.body.id, suggested_action: 'link', similar_ids: [first.body.id] });

  const original = await a.submit('acme', report(reject.id));
  t.equal(original.status, 201);
  const refused = await a.submit('acme', report(reject.id, at(10)));
  t.equal(refused.status, 409, 'reject: a likely duplicate is refused');
  t.equal(refused.body.code, 'DUPLICATE_DETECTED');
  t.same(refused.body.similar_reports.map((r: { id: number }) => r.id), [original.body.id]);
  t.same(leaksPersonal(refused.body), [], 'the 409 names no reporter');
  t.equal((await rows(tp, 'occurrences', 'acme')).filter((row) => row.type_id === reject.id).length, 1, 'the refused one was not stored');
  t.equal((await a.submit('acme', report(reject.id, at(200)))).status, 201, 'reject: far enough away is no duplicate');

  t.equal((await a.submit('acme', report(allow.id))).status, 201);
  const allowed = await a.submit('acme', report(allow.id));
  t.equal(allowed.status, 201);
  t.notOk('possible_duplicates' in allowed.body, 'allow: no check at all');
});

t.test('check_duplicates: ranked, with a suggested action; radius, window, type and final states bound it', async (t) => {
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  const { tp, admin, staff } = await occurrencesPlatform(t, { services: { clock } });
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow', duplicate_radius_m: 50, duplicate_window_days: 30 });
  const otherType = await a.type(admin, { duplicate_policy: 'allow' });

  for (const path of ['/api/occurrences/check_duplicates', '/api/occurrences/check_duplicates/']) {
    const empty = await a.call('POST', path, { tenant: 'acme' }, report(type.id));
    t.equal(empty.status, 200, path);
    t.same(empty.body, { has_duplicates: false, suggested_action: 'create', similar_reports: [] });
  }

  const near = (await a.submit('acme', report(type.id, at(5)))).body;
  const textOnly = (await a.submit('acme', report(type.id, { ...at(30), title: 'Broken bench', description: 'The bench slats are missing' }))).body;
  const far = (await a.submit('acme', report(type.id, at(80)))).body;
  const sameSpotOtherType = (await a.submit('acme', report(otherType.id))).body;
  t.ok(near.id && textOnly.id && far.id && sameSpotOtherType.id);

  const checked = await a.check('acme', report(type.id));
  t.equal(checked.status, 200);
  t.equal(checked.body.has_duplicates, true);
  t.equal(checked.body.suggested_action, 'link', 'the same text a few metres away: link');
  t.same(checked.body.similar_reports.map((r: { id: number }) => r.id), [near.id, textOnly.id], 'ranked; outside the radius and other types left out');
  t.ok(checked.body.similar_reports[0].text_similarity > checked.body.similar_reports[1].text_similarity);
  t.same(Object.keys(checked.body.similar_reports[0]).sort(), ['created_at', 'distance_m', 'id', 'reference', 'state', 'text_similarity', 'title']);
  t.same(leaksPersonal(checked.body), []);

  const unrelated = await a.check('acme', report(type.id, { ...at(30), title: 'Graffiti', description: 'Paint on the wall' }));
  t.equal(unrelated.body.suggested_action, 'review', 'near but not alike: review');

  // A final state takes a report out of the check.
  t.equal((await a.transition(staff, near.id, { to_state: 'rejected', comment: 'not ours' })).status, 200);
  t.same((await a.check('acme', report(type.id))).body.similar_reports.map((r: { id: number }) => r.id), [textOnly.id]);

  // Past the window nothing is similar any more.
  offsetMs = 31 * 86_400_000;
  t.same((await a.check('acme', report(type.id))).body, { has_duplicates: false, suggested_action: 'create', similar_reports: [] });

  t.equal((await a.check('acme', report(999_999))).status, 422, 'an unknown type');
  t.equal((await a.check('acme', { ...report(type.id), latitude: 'north' })).status, 400);
});
