// The Approvals section in real Chromium: a workflow waits at an APPROVAL
// step whose case staff may decide; a member who may not decide sees the
// section without a button; the staff member approves it in the console with
// a comment, and the waiting execution resumes and completes (read through
// REST); the case is then listed as decided, with who decided and when.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot } from './helpers.ts';

const missing = browserMissing();
if (missing) {
  t.test(`console browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await consoleFixture(t);
  const admin = (method: string, url: string, payload?: unknown) => f.tp.request({ method, url, token: f.tokens.admin, tenant: 'acme', payload });
  const defined = await admin('POST', '/api/admin/workflows', {
    name: 'refund',
    steps: [
      {
        id: 'gate', type: 'APPROVAL', title: 'Refund {{inputs.order}}', description: 'Amount {{inputs.amount}} EUR',
        payload: { order: '{{inputs.order}}', amount: '{{inputs.amount}}' }, approvers: { roles: ['staff'] }, timeout_seconds: 3600, output_key: 'approval',
      },
      { id: 'pay', type: 'ACTION', handler: 'log', arguments: { message: 'paying {{inputs.order}}' }, output_key: 'paid' },
    ],
  });
  if (defined.status !== 201) throw new Error(JSON.stringify(defined.body));
  const started = await admin('POST', '/api/admin/workflows/refund/execute', { inputs: { order: 'A-7', amount: 120 } });
  const executionId = started.body.execution_id as string;
  const opened = await until(async () => {
    const listed = await admin('GET', '/api/approvals?source_type=workflow');
    return listed.body.items.find((c: { source: { execution_id: string } }) => c.source.execution_id === executionId);
  }, 'the case the execution opened');
  const execution = async () => (await admin('GET', `/api/admin/executions/${executionId}`)).body;
  t.equal((await execution()).status, 'waiting', 'the execution waits at its APPROVAL step');

  t.test('a member who may not decide sees no Approve or Reject button', async (t) => {
    const page = await openConsole(f, 'member', '/approvals');
    await page.getByText('No case waits for your decision.').waitFor();
    t.equal(await page.getByRole('button', { name: /^(Approve|Reject)/ }).count(), 0);
    t.equal(await page.getByRole('heading', { name: 'Refund A-7' }).count(), 0, 'nor the case');
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Approvals']);
    t.same(await axeViolations(page), []);
    t.same(page.errors, []);
    await screenshot(page, 'approvals-member');
    await page.context().close();
  });

  t.test('the approver approves in the console; the waiting workflow resumes and completes', async (t) => {
    const page = await openConsole(f, 'staff', '/approvals');
    const card = page.getByRole('article', { name: 'Refund A-7' });
    await card.waitFor();
    t.match(await card.innerText(), /Amount 120 EUR/, 'the description');
    t.match(await card.getByRole('region', { name: 'Details of Refund A-7' }).innerText(), /"order": "A-7"/, 'the payload');
    t.same(await axeViolations(page), [], 'axe: a case to decide');
    await screenshot(page, 'approvals-to-decide');
    await card.getByRole('textbox', { name: 'Comment (optional) Refund A-7' }).fill('Receipt checked');
    await card.getByRole('button', { name: 'Approve Refund A-7' }).click();
    await page.getByRole('status').filter({ hasText: 'Refund A-7: approved' }).waitFor({ state: 'attached' });

    const done = await until(async () => {
      const found = await execution();
      return found.status === 'completed' ? found : undefined;
    }, 'the execution completes');
    t.match(done.context.approval, { case_id: opened.id, status: 'approved', decisions: [{ by: f.subs.staff, decision: 'approve', comment: 'Receipt checked' }] });
    t.ok(done.context.paid, 'the step after the gate ran');

    await page.getByText('No case waits for your decision.').waitFor();
    const decided = page.getByRole('table', { name: 'Decided' });
    const row = decided.getByRole('row').filter({ hasText: 'Refund A-7' });
    t.match(await row.innerText(), new RegExp(`approved\\s+${f.subs.staff} approved \\(.+\\): Receipt checked`), 'who decided, when and why');
    t.same(await axeViolations(page), []);
    t.same(page.errors, []);
    await screenshot(page, 'approvals-decided');
    await page.context().close();
  });
}
