// The Workflows section in real Chromium, as the tenant admin: definitions
// (one read), an execution run through the API listed with its step
// timeline, the executions filtered by status, a waiting execution resumed
// with the signed-resume form (the tenant's signing secret, Standard
// Webhooks headers signed in the page) and completed, a trigger paused and
// resumed (the REST read confirms each), on a 390 px screen too.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot } from './helpers.ts';

const missing = browserMissing();
if (missing) {
  t.test(`console browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await consoleFixture(t);
  const admin = (method: string, url: string, payload?: unknown) => f.tp.request({ method, url, token: f.tokens.admin, tenant: 'acme', payload });
  const created = async (method: string, url: string, payload: unknown, status: number) => {
    const res = await admin(method, url, payload);
    if (res.status !== status) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await created('POST', '/api/admin/workflows', {
    name: 'greet', description: 'Says hello',
    steps: [{ id: 'hello', type: 'ACTION', handler: 'log', arguments: { message: 'hello {{inputs.who}}' }, output_key: 'said' }],
  }, 201);
  await created('POST', '/api/admin/workflows', {
    name: 'await-parcel', description: 'Waits for a parcel',
    steps: [
      { id: 'announce', type: 'ACTION', handler: 'log', arguments: { message: 'waiting for the parcel' } },
      { id: 'parcel', type: 'WAIT', handler: 'temporal:wait_for_event', event_type: 'parcel.arrived', timeout_seconds: 3600, output_key: 'parcel' },
      { id: 'unpack', type: 'ACTION', handler: 'log', arguments: { message: 'unpacking' }, output_key: 'unpacked' },
    ],
  }, 201);
  await created('POST', '/api/admin/triggers', { name: 'on-order', event_type: 'order.placed', target_name: 'greet' }, 201);
  const executionOf = async (id: string) => (await admin('GET', `/api/admin/executions/${id}`)).body;
  const greeted = (await created('POST', '/api/admin/workflows/greet/execute', { inputs: { who: 'Ada' } }, 202)).execution_id as string;
  const waiting = (await created('POST', '/api/admin/workflows/await-parcel/execute', { inputs: {} }, 202)).execution_id as string;
  await until(async () => (await executionOf(greeted)).status === 'completed', 'greet completes');
  await until(async () => (await executionOf(waiting)).status === 'waiting', 'await-parcel waits');

  t.test('executions: listed, filtered by status, a timeline, a signed resume that completes the execution', async (t) => {
    const page = await openConsole(f, 'admin', '/workflows');
    const executions = page.getByRole('table', { name: 'Executions' });
    await executions.getByRole('cell', { name: 'greet' }).waitFor();
    const workflowsListed = async () => (await executions.getByRole('row').allInnerTexts()).slice(1).map((row) => row.split('\t')[1]);
    t.same((await workflowsListed()).sort(), ['await-parcel', 'greet'], 'both executions');

    await page.getByRole('button', { name: 'Definition of greet' }).click();
    t.match(await page.getByRole('region', { name: 'Definition of greet' }).innerText(), /"handler": "log"/, 'the definition, read-only');

    await page.getByLabel('Status').selectOption({ label: 'waiting' });
    await page.getByRole('status').filter({ hasText: '1 executions shown (waiting)' }).waitFor({ state: 'attached' });
    t.same(await workflowsListed(), ['await-parcel'], 'only the waiting one');
    await page.getByLabel('Status').selectOption({ label: 'completed' });
    await page.getByRole('status').filter({ hasText: '1 executions shown (completed)' }).waitFor({ state: 'attached' });
    t.same(await workflowsListed(), ['greet'], 'only the completed one');

    await page.getByLabel('Status').selectOption({ label: 'Any status' });
    await page.getByRole('button', { name: `Open execution ${waiting}` }).click();
    const timeline = page.getByRole('table', { name: 'Step timeline' });
    await timeline.waitFor();
    t.same((await timeline.getByRole('row').allInnerTexts()).slice(1).map((row) => row.split('\t').slice(0, 3)), [
      ['announce', 'ACTION', 'completed'], ['parcel', 'WAIT', 'waiting'],
    ], 'the steps so far: the action done, the wait open');
    await page.getByText('Waiting at parcel for parcel.arrived').waitFor();

    t.same(await axeViolations(page), [], 'axe: the waiting execution and its resume form');
    const secret = await created('POST', '/api/admin/webhooks/signing-secret', undefined, 201);
    await page.getByLabel('Signing secret').fill(secret.secret);
    await page.getByLabel('Event data (JSON object)').fill('{"box": 7}');
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    t.match(await page.getByText(/^POST \/api\/webhooks\/parcel\.arrived/).innerText(), /webhook-signature: v1,[A-Za-z0-9+/=]+/, 'the signed request is shown');
    t.notMatch(await page.locator('body').innerText(), secret.secret, 'the secret is not shown');
    await page.getByRole('button', { name: 'Sign and send' }).click();
    // The form's line goes with the wait once the execution moves on; the status region keeps the answer with the new status.
    await page.getByRole('status').filter({ hasText: 'Signed resume answered 202: delivered' }).waitFor({ state: 'attached' });

    const done = await until(async () => {
      const execution = await executionOf(waiting);
      return execution.status === 'completed' ? execution : undefined;
    }, 'the resumed execution completes');
    t.match(JSON.stringify(done.context.parcel), /"box":7/, 'the signal\'s data is the wait\'s output');
    await timeline.getByRole('row').filter({ hasText: 'unpack' }).getByText('completed').waitFor();
    t.same((await timeline.getByRole('row').allInnerTexts()).slice(1).map((row) => row.split('\t').slice(0, 3)), [
      ['announce', 'ACTION', 'completed'], ['parcel', 'WAIT', 'resumed by a signal'], ['unpack', 'ACTION', 'completed'],
    ], 'the console shows the resumed timeline');
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Workflows']);
    t.same(await axeViolations(page), []);
    t.same(page.errors, []);
    await screenshot(page, 'workflows-execution');
    await page.context().close();
  });

  t.test('a trigger paused and resumed in the console, on a 390 px screen', async (t) => {
    const page = await openConsole(f, 'admin', '/workflows', { viewport: { width: 390, height: 844 } });
    const triggerActive = async () => (await admin('GET', '/api/admin/triggers/on-order')).body.active as boolean;
    t.equal(await triggerActive(), true);
    await page.getByRole('button', { name: 'Pause on-order' }).click();
    await page.getByRole('status').filter({ hasText: 'Trigger on-order paused' }).waitFor({ state: 'attached' });
    t.equal(await triggerActive(), false, 'REST: paused');
    const resume = page.getByRole('button', { name: 'Resume on-order' });
    t.ok(await resume.evaluate((el) => el.matches(':focus')), 'the focus stays on the trigger\'s button');
    t.same(await axeViolations(page), [], 'axe: a paused trigger');
    await screenshot(page, 'workflows-narrow-paused');
    await resume.click();
    await page.getByRole('status').filter({ hasText: 'Trigger on-order resumed' }).waitFor({ state: 'attached' });
    t.equal(await triggerActive(), true, 'REST: active again');
    t.same(page.errors, []);
    await page.context().close();
  });
}
