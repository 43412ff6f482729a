// The SDK's harness (agent-platform/sdk/testing): a manifest given as a value
// or a file, and the services a test may replace: the fetch of outbound calls,
// the chat model client and the clock business rules read.
import t from 'tap';
import { emitterOf } from '../../plugins/chat/events/emitter.ts';
import { defaultOptions } from '../../plugins/chat/options.ts';
import { sweepHandler } from '../../plugins/chat/tasks/chat.sweep.ts';
import type { ModelClient } from '../../plugins/chat/api.ts';
import * as sdk from 'agent-platform/sdk';
import * as testing from 'agent-platform/sdk/testing';
import * as harness from '../harness.ts';

const { startTestPlatform, tenantWithAdmin } = testing;

t.test('agent-platform/sdk/testing offers the harness the tests use; the SDK entry does not', async (t) => {
  t.equal(testing.startTestPlatform, harness.startTestPlatform);
  t.equal(testing.runCli, harness.runCli);
  t.type(testing.tenantWithAdmin, 'function');
  t.type(testing.until, 'function');
  t.notOk('startTestPlatform' in sdk, 'a plugin loading agent-platform/sdk does not load the harness');
});

t.test('a manifest value, and a fetch that replaces every outbound call (http_request here)', async (t) => {
  const seen: string[] = [];
  const stub: typeof fetch = async (input) => {
    seen.push(String(input instanceof Request ? input.url : input));
    return new Response(JSON.stringify({ from: 'stub' }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const tp = await startTestPlatform(t, {
    manifest: { plugins: [{ plugin: './plugins/tenancy' }, { plugin: './plugins/workflows', options: { actionAttempts: 1 } }] },
    services: { fetch: stub },
  });
  const loaded = Object.keys(tp.platform.server.registrations);
  t.ok(loaded.includes('workflows') && loaded.includes('tenancy'), 'the value\'s plugins are loaded');
  t.notOk(loaded.includes('events'), 'and only those');
  await tenantWithAdmin(tp, 'acme');
  const called = await tp.request({
    method: 'POST', url: '/api/admin/functions/http_request/call', token: tp.adminToken, tenant: 'acme',
    payload: { arguments: { url: 'https://api.example.test/hello' } },
  });
  t.equal(called.status, 200, JSON.stringify(called.body));
  t.same(called.body.result?.body ?? called.body.body, { from: 'stub' });
  t.same(seen, ['https://api.example.test/hello']);
});

t.test('a model client and a clock: chat answers from the client; the sweep prunes by the clock', async (t) => {
  let now = new Date();
  const modelClient: ModelClient = {
    async stream(call, options) {
      const text = `You asked: ${call.messages.at(-1)?.content}`;
      options.onText(text);
      return { text, toolCalls: [], finishReason: 'stop', usage: null };
    },
  };
  const tp = await startTestPlatform(t, {
    manifest: 'test/fixtures/manifests/chat.yaml',
    env: { LLM_BASE_URL: '' },
    services: { modelClient, clock: { now: () => now } },
  });
  await tp.platform.start();
  const { token } = await tenantWithAdmin(tp, 'acme');
  await tp.request({ method: 'POST', url: '/api/admin/clients', token, payload: { name: 'web', client_key: 'ck_acme_web' } });
  const session = await tp.request({ method: 'POST', url: '/api/sessions', token, payload: {} });
  const asked = await tp.request({ method: 'POST', url: `/api/chat/${session.body.id}`, token, payload: { content: 'the weather' } });
  t.equal(asked.status, 200, 'the turn streams');
  t.match(String(asked.body), /You asked: the weather/, 'the replaced client answered');

  const core = tp.platform.core;
  t.equal(core.clock.now(), now, 'core.clock is the given clock');
  const sweep = sweepHandler(core, defaultOptions, emitterOf(core));
  t.equal((await sweep()).frames, 0, 'the turn\'s frames are younger than the retention');
  now = new Date(Date.now() + (defaultOptions.frameRetentionHours + 1) * 3_600_000);
  t.ok((await sweep()).frames > 0, 'a week later by the clock, they are pruned');
});
