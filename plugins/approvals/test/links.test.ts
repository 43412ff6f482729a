// One-time decision links: signed, bound to one case, one
// approver and one decision, expiring with the case, used once. Opening a
// link (GET, what a mail scanner prefetches) shows a confirmation page and
// decides nothing; its form's POST decides. The page tells only the title.
import t from 'tap';
import { approvalsFixture, caseOf, person } from './helpers.ts';

const pathOf = (url: string) => new URL(url).pathname;

t.test('links per approver: GET shows a page and decides nothing; POST decides once', async (t) => {
  const { tp, admin } = await approvalsFixture(t);
  await person(tp, 'acme', 'ann');
  await person(tp, 'acme', 'bob');
  await person(tp, 'acme', 'cat', ['finance']);
  await person(tp, 'acme', 'dan');
  const opened = await tp.request({
    method: 'POST', url: '/api/approvals', token: admin,
    payload: { title: 'Pay invoice <7>', description: 'secret details', payload: { iban: 'DE00 SECRET' }, approvers: { users: ['ann', 'bob', 'ghost'], roles: ['finance'] }, quorum: 2, links: true },
  });
  t.equal(opened.status, 201);
  const links = opened.body.links as { approver: string; approve_url: string; reject_url: string }[];
  t.same(links.map((l) => l.approver), ['ann', 'bob', 'cat'], 'listed users and role holders the directory knows; not others');
  t.ok(links.every((l) => l.approve_url.startsWith('http://approvals.test/api/approvals/links/')), 'under the configured public URL');
  const ann = links[0];

  for (let i = 0; i < 3; i++) {
    const page = await tp.request({ url: pathOf(ann.approve_url) });
    t.equal(page.status, 200);
    t.match(page.headers['content-type'], /text\/html/);
    t.match(String(page.body), /Pay invoice &#60;7&#62;/, 'the title, escaped');
    t.match(String(page.body), /<form method="post">/);
    t.notMatch(String(page.body), /secret|SECRET|ann|bob/, 'nothing of the case beyond its title and the decision');
  }
  t.same((await caseOf(tp, admin, opened.body.id)).decisions, [], 'opening a link, however often, decides nothing');

  const used = await tp.request({ method: 'POST', url: pathOf(ann.approve_url), payload: 'comment=looks+right', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  t.equal(used.status, 200, JSON.stringify(used.body));
  t.match(String(used.body), /awaits other approvers/);
  t.match((await caseOf(tp, admin, opened.body.id)).decisions, [{ by: 'ann', decision: 'approve', comment: 'looks right', via: 'link' }]);

  const again = await tp.request({ method: 'POST', url: pathOf(ann.approve_url) });
  t.equal(again.status, 409, 'a link is used once');
  t.equal(again.body.code, 'LINK_USED');
  const other = await tp.request({ method: 'POST', url: pathOf(ann.reject_url) });
  t.equal(other.body.code, 'LINK_USED', 'and its twin (the approver has decided)');

  const url = ann.approve_url;
  const tampered = `${url.slice(0, -3)}${url.at(-3) === 'A' ? 'B' : 'A'}${url.slice(-2)}`;
  t.equal((await tp.request({ url: pathOf(tampered) })).status, 404, 'a wrong signature is no link');
  const forged = links[1].reject_url.split('.')[0] + '.' + ann.approve_url.split('.').at(-1);
  t.equal((await tp.request({ method: 'POST', url: pathOf(forged) })).status, 404, 'a signature belongs to its own claims');
  t.equal((await tp.request({ url: '/api/approvals/links/not-a-token' })).status, 400);

  const cat = await tp.request({ method: 'POST', url: pathOf(links[2].reject_url) });
  t.equal(cat.status, 200);
  t.match(String(cat.body), /now rejected/);
  const bob = await tp.request({ url: pathOf(links[1].approve_url) });
  t.match(String(bob.body), /already rejected/, 'the page of a settled case says so, with no form');
  t.equal((await tp.request({ method: 'POST', url: pathOf(links[1].approve_url) })).body.code, 'APPROVAL_RESOLVED');
});

t.test('a link expires with its case', async (t) => {
  let offsetMs = 0;
  const { tp, admin } = await approvalsFixture(t, { services: { clock: { now: () => new Date(Date.now() + offsetMs) } } });
  await person(tp, 'acme', 'ann');
  const opened = await tp.request({ method: 'POST', url: '/api/approvals', token: admin, payload: { title: 'Soon over', approvers: { users: ['ann'] }, timeout_seconds: 60, links: true } });
  const url = pathOf(opened.body.links[0].approve_url);
  t.equal((await tp.request({ url })).status, 200);
  offsetMs = 61_000;
  const expired = await tp.request({ url });
  t.equal(expired.status, 409);
  t.equal(expired.body.code, 'LINK_EXPIRED');
  t.equal((await tp.request({ method: 'POST', url })).body.code, 'LINK_EXPIRED');
  t.same((await caseOf(tp, admin, opened.body.id)).decisions, []);
});

t.test('the public link pages are rate limited per client address (429 with Retry-After)', async (t) => {
  const { tp, admin } = await approvalsFixture(t, { manifest: 'test/fixtures/manifests/approvals-link-limit.yaml' });
  await person(tp, 'acme', 'ann');
  const opened = await tp.request({ method: 'POST', url: '/api/approvals', token: admin, payload: { title: 'Limited', approvers: { users: ['ann'] }, links: true } });
  const url = pathOf(opened.body.links[0].approve_url);
  // 3 a minute: 8 requests cross at most one minute boundary, so some are refused whatever the timing.
  const answers = [];
  for (let i = 0; i < 8; i++) answers.push(await tp.request({ url }));
  const limited = answers.filter((a) => a.status === 429);
  t.ok(limited.length >= 2, `refused past the limit (${answers.map((a) => a.status).join(' ')})`);
  t.equal(limited[0].body.code, 'RATE_LIMITED');
  t.match(String(limited[0].headers['retry-after']), /^\d+$/);
  t.ok(answers.every((a) => a.status === 200 || a.status === 429));
});
