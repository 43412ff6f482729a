// The public tracking page, fetched over real HTTP from the listening
// platform: the report's public fields after submit, the state history after
// a staff transition, a message sent to the reporter (staff notes and
// personal data never), the same 404 page for an unknown tenant, an unknown
// reference and another tenant's reference, escaping, the language, the
// security headers, the rate limit, the tracking link of templates, and
// Open311's status of the same report.
import t from 'tap';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { api, occurrencesPlatform, PERSONAL, report } from './helpers.ts';

let addresses = 0;
/** A fresh client address (the platform trusts X-Forwarded-For here): each call its own rate-limit buckets. */
const fresh = () => ({ 'x-forwarded-for': `10.1.${Math.floor(++addresses / 250)}.${addresses % 250}` });

t.test('the tracking page', async (t) => {
  const { tp, admin, staff } = await occurrencesPlatform(t, {
    listen: true,
    occurrences: { trustProxy: true, publicRatePerMinute: 5, publicAddressRatePerMinute: 8, trackingUrl: 'https://city.example/track/{tenant}/{reference}' },
  });
  await tenantWithAdmin(tp, 'other');
  const a = api(tp);
  const type = await a.type(admin, { name: 'Broken <b>lamp</b>', duplicate_policy: 'allow' });
  const submitted = await a.submit('acme', report(type.id, { title: 'Lamp <script>alert(1)</script> out', address: 'Rua "Augusta" & 10' }), fresh());
  t.equal(submitted.status, 201, JSON.stringify(submitted.body));
  const { id, reference } = submitted.body as { id: number; reference: string };
  const page = (path: string, headers: Record<string, string> = {}) => fetch(tp.url(path), { headers: { ...fresh(), ...headers } });
  const text = async (response: Response) => response.text();

  t.test('after submit: public fields, escaped, headers', async (t) => {
    const response = await page(`/track/acme/${reference}`);
    t.equal(response.status, 200);
    t.match(response.headers.get('content-type'), /^text\/html; charset=utf-8/);
    const csp = response.headers.get('content-security-policy') ?? '';
    t.match(csp, /default-src 'none'/);
    t.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/, 'the inline style by its hash only');
    t.notMatch(csp, /unsafe-inline|script-src/, 'no inline script allowed');
    t.match(csp, /frame-ancestors 'none'/);
    t.equal(response.headers.get('x-frame-options'), 'DENY');
    t.equal(response.headers.get('x-content-type-options'), 'nosniff');
    t.equal(response.headers.get('referrer-policy'), 'no-referrer');
    t.equal(response.headers.get('content-language'), 'en');
    const html = await text(response);
    t.notMatch(html, /<script/i, 'no script element at all');
    t.match(html, 'Lamp &lt;script&gt;alert(1)&lt;/script&gt; out', 'the title shows as text');
    t.match(html, 'Broken &lt;b&gt;lamp&lt;/b&gt;', 'the type name escaped');
    t.match(html, 'Rua &quot;Augusta&quot; &amp; 10');
    t.match(html, reference);
    t.match(html, 'A deep pothole in the right lane near the bus stop');
    t.match(html, /<dd class="state">Submitted<\/dd>/);
    t.match(html, /<h2 id="history">State history<\/h2><ol><li><span class="state">Submitted<\/span>/);
    t.match(html, 'No messages yet.');
    t.same(PERSONAL.filter((value) => html.includes(value)), [], 'no personal data of the reporter');
    const style = /<style>([^<]*)<\/style>/.exec(html)![1];
    const { createHash } = await import('node:crypto');
    t.match(csp, `'sha256-${createHash('sha256').update(style).digest('base64')}'`, 'the hash is the stylesheet\'s');
  });

  t.test('after a staff transition and a message: history, messages, no staff name or note', async (t) => {
    t.equal((await a.transition(staff, id, { to_state: 'triaged', comment: 'Internal: crew B, call Rui' })).status, 200);
    const email = await a.call('POST', '/api/backoffice/templates', { token: admin }, {
      name: 'Received', channel: 'email', subject: 'We received {{reference}}', body: 'Dear {{reporter_name}}, your report is {{state_label}}. Follow it: {{tracking_link}}',
    });
    t.equal(email.status, 201, JSON.stringify(email.body));
    const note = await a.call('POST', '/api/backoffice/templates', { token: admin }, { name: 'Staff note', channel: 'note', subject: 'Crew note', body: 'Secret crew note {{reference}}' });
    for (const template of [email.body.id, note.body.id]) {
      const applied = await a.call('POST', '/api/backoffice/templates/apply', { token: staff }, { occurrence_id: id, template_id: template });
      t.equal(applied.status, 201, JSON.stringify(applied.body));
    }
    const html = await text(await page(`/track/acme/${reference}`));
    t.match(html, /<li><span class="state">Submitted<\/span>[^]*<li><span class="state">Triaged<\/span>/, 'the history, oldest first');
    t.match(html, /<dd class="state">Triaged<\/dd>/);
    t.match(html, `<h3>We received ${reference}</h3>`);
    t.match(html, `Dear …, your report is Triaged. Follow it: https://city.example/track/acme/${reference}`, 'the tracking link names the tenant; the name is left out');
    t.notMatch(html, /Crew note|Secret crew note/, 'staff notes are not shown');
    t.notMatch(html, /crew B|acme-staff/, 'no staff comment or name');
    t.same(PERSONAL.filter((value) => html.includes(value)), [], 'no personal data of the reporter');

    const open311 = await tp.request({ url: `/open311/v2/acme/requests/${reference}.json`, headers: fresh() });
    t.equal(open311.status, 200);
    t.equal(open311.body[0].status, 'open');
    t.equal(open311.body[0].status_notes, 'Triaged', 'Open311 gives the state the tracking page shows');
  });

  t.test('the language: Accept-Language, and ?lang= over it', async (t) => {
    const pt = await page(`/track/acme/${reference}`, { 'accept-language': 'fr-FR, pt-PT;q=0.8, en;q=0.5' });
    t.equal(pt.headers.get('content-language'), 'pt');
    const html = await text(pt);
    t.match(html, '<html lang="pt">');
    t.match(html, 'Histórico de estados');
    t.match(html, 'Mensagens enviadas');
    const en = await page(`/track/acme/${reference}?lang=en`, { 'accept-language': 'pt' });
    t.match(await text(en), 'State history', '?lang= wins');
    t.match(await text(await page(`/track/acme/${reference}?lang=pt`)), 'Histórico de estados');
    t.match(await text(await page(`/track/acme/${reference}?lang=de`, { 'accept-language': 'de' })), '<html lang="en">', 'English otherwise');
  });

  t.test('the same 404 page for an unknown reference, another tenant\'s, an unknown or malformed tenant', async (t) => {
    const pages = await Promise.all([
      page('/track/acme/OC-1999-000001'), page(`/track/other/${reference}`), page(`/track/nobody/${reference}`), page(`/track/NOT_VALID/${reference}`),
    ]);
    const bodies = await Promise.all(pages.map(text));
    t.same(pages.map((response) => response.status), [404, 404, 404, 404]);
    t.equal(new Set(bodies).size, 1, 'byte for byte the same');
    t.match(bodies[0], 'Report not found');
    t.notMatch(bodies[0], reference);
    t.equal(pages[1].headers.get('content-security-policy'), pages[0].headers.get('content-security-policy'));
    const pt = await page('/track/nobody/x', { 'accept-language': 'pt' });
    t.equal(pt.status, 404);
    t.match(await text(pt), 'Ocorrência não encontrada');
  });

  t.test('the rate limit: per address, before anything else', async (t) => {
    const address = { 'x-forwarded-for': '10.9.9.9' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await page(`/track/acme/${reference}`, address)).status);
    t.same(statuses, [200, 200, 200, 200, 200, 429], 'OCCURRENCES_PUBLIC_RATE_LIMIT per address and tenant');
    const limited = await page(`/track/acme/${reference}`, address);
    t.ok(Number(limited.headers.get('retry-after')) > 0, 'Retry-After');
    const other = { 'x-forwarded-for': '10.9.9.10' };
    const made: number[] = [];
    for (let i = 0; i < 9; i++) made.push((await page(`/track/nobody-${i}/${reference}`, other)).status);
    t.same(made, [404, 404, 404, 404, 404, 404, 404, 404, 429], 'made-up tenants spend the address\'s own tokens');
  });
});
