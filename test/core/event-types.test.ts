// Event types come through the plugin contract: each plugin registers the
// types it emits (core.events.registerTypes); with the default manifest the
// catalogue is the complete built-in list below; a type has one owner; a
// partner plugin's types (loaded from outside plugins/) are not built in.
import t from 'tap';
import { createTestDatabase, runCli, startTestPlatform, tenantWithAdmin } from '../harness.ts';

const SPEC_BUILT_IN = [
  'document.uploaded', 'document.ingested', 'document.ingestion_failed', 'workflow.completed', 'workflow.failed',
  'approval.created', 'approval.resolved', 'webhook.received', 'schedule.fired', 'deadman.fired',
  'chat.session.created', 'chat.session.ended', 'chat.tool.called', 'chat.tool.completed', 'chat.tool.failed',
  'agent.loop.started', 'agent.loop.completed', 'agent.loop.iteration', 'agent.loop.failed',
  'definition.created', 'definition.updated', 'definition.deleted',
];
/** Types of the default deployment's plugins beyond the built-in list: forms, feedback on chat answers, the embed credential's lifecycle, occurrences. */
const PLUGIN_TYPES = [
  'form.submitted', 'form.hydrated', 'form.hydration_failed', 'chat.feedback.given',
  'embed.credentials.provisioned', 'embed.credentials.rotated', 'embed.credentials.revoked',
  'occurrence.submitted', 'occurrence.duplicate_detected', 'occurrence.state_changed', 'occurrence.message_sent',
];

// Types the platform adds beyond the built-in list: the data pipeline's outbound types.
const PLATFORM_ADDED = ['dataset.snapshot_created', 'source.sync.completed', 'source.sync.failed'];
// The runs of pipelines (plugins/pipelines) and of transforms (plugins/pipelines-transforms).
PLATFORM_ADDED.push('pipeline.run.started', 'pipeline.run.completed', 'pipeline.run.failed');
PLATFORM_ADDED.push('transform.run.completed', 'transform.run.failed');
// The ontology's syncs and entity types (plugins/ontology).
PLATFORM_ADDED.push('ontology.sync.completed', 'ontology.sync.failed', 'ontology.sync.skipped', 'ontology.entity_type.changed');
// The outbox's deliveries (plugins/mail).
PLATFORM_ADDED.push('mail.sent', 'mail.dead');

t.test('with the default manifest the catalogue is the built-in list and the types plugins add, each type registered by the plugin that emits it', async (t) => {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: 'manifests/default.yaml' } });
  const { token } = await tenantWithAdmin(tp, 'acme');
  const listed = await tp.request({ url: '/api/admin/triggers/events/types', token });
  t.equal(listed.status, 200);
  t.same(listed.body.items.map((item: { type: string }) => item.type).sort(), [...SPEC_BUILT_IN, ...PLUGIN_TYPES, ...PLATFORM_ADDED].sort());
  t.ok(listed.body.items.every((item: { description: string; builtin: boolean }) => item.description.length > 10 && item.builtin));

  const owners = Object.fromEntries(tp.platform.core.events.registeredTypes().map((entry) => [entry.type, entry.plugin]));
  t.same(
    [owners['document.ingested'], owners['chat.tool.called'], owners['webhook.received'], owners['schedule.fired'], owners['workflow.failed'], owners['approval.created']],
    ['ingestion', 'chat', 'webhooks', 'events', 'workflows', 'approvals'],
  );

  const taken = await tp.request({ method: 'POST', url: '/api/admin/triggers/events/types/custom', token, payload: { type: 'document.ingested' } });
  t.equal(taken.status, 400, 'a custom type may not take a registered name');
  t.same(taken.body.fields, ['type']);
  t.match(taken.body.message, /registered by the ingestion plugin/);
});

t.test('a partner plugin\'s types are not built in: only the plugins loaded from this repository\'s plugins/ are', async (t) => {
  for (const manifest of ['test/fixtures/partner-plugin/test/by-package.yaml', 'test/fixtures/partner-plugin/test/by-path.yaml']) {
    const tp = await startTestPlatform(t, { manifest });
    const { token } = await tenantWithAdmin(tp, 'acme');
    const listed = await tp.request({ url: '/api/admin/triggers/events/types', token });
    t.equal(listed.status, 200);
    const builtin = Object.fromEntries(listed.body.items.map((item: { type: string; builtin: boolean }) => [item.type, item.builtin]));
    t.same([builtin['demo.note.created'], builtin['workflow.completed'], builtin['schedule.fired']], [false, true, true], manifest);
    const owner = tp.platform.core.events.registeredType('demo.note.created');
    t.match(owner, { plugin: 'demo', builtin: false });

    const taken = await tp.request({ method: 'POST', url: '/api/admin/triggers/events/types/custom', token, payload: { type: 'demo.note.created' } });
    t.equal(taken.status, 400, 'a custom type may not take a partner\'s name either');
    t.match(taken.body.message, /"demo\.note\.created" is a plugin's event type \(registered by the demo plugin\)/);
    await tp.platform.stop();
  }
});

t.test('a type registered by two plugins stops the boot with one line naming both', async (t) => {
  const databaseUrl = await createTestDatabase(t, { migrated: true });
  const result = await runCli(['serve'], {
    env: { PLATFORM_MANIFEST: 'test/fixtures/manifests/type-clash.yaml', DATABASE_URL: databaseUrl, PLATFORM_MASTER_KEY: 'a'.repeat(64), ADMIN_TOKEN: 'adm_type_clash', PORT: '0' },
  });
  t.equal(result.code, 1, result.stderr);
  const lines = result.stderr.trim().split('\n');
  t.equal(lines.length, 1, result.stderr);
  t.equal(lines[0], 'error: event type "webhook.received" is registered twice: by plugin "webhooks" and by plugin "type-clash"');
});
