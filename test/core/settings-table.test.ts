// The README's configuration table is generated from the sources
// (scripts/settings-table.ts): the core's declared settings, the default
// manifest's placeholders with each option's joi description, and the
// plugins' environment secrets. README.md must hold exactly that table.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { README, renderTable, settingRows, tableOf } from '../../scripts/settings-table.ts';

t.test('README.md\'s configuration table is the generated one', async (t) => {
  const rows = await settingRows();
  const generated = renderTable(rows);
  const { text } = tableOf(await readFile(README, 'utf8'));
  t.equal(text, generated, 'README.md holds the generated table; when it does not, run `node scripts/settings-table.ts --write`');
});

t.test('every setting has one row with a meaning, secrets included', async (t) => {
  const rows = await settingRows();
  const variables = rows.flatMap((row) => row.variables);
  t.same(variables.filter((name, i) => variables.indexOf(name) !== i), [], 'no variable has two rows');
  t.ok(rows.every((row) => row.description.length > 0 && row.default.length > 0), 'each row has a default and a meaning');
  const row = (name: string) => rows.find((item) => item.variables.includes(name));
  t.match(row('EVENTS_MAX_CHAIN_DEPTH'), { default: '`8`', description: /chain of workflows/ }, 'an option moved off the environment');
  t.match(row('WEBHOOK_SECRET'), { default: 'unset', description: /fallback secret/ }, 'a secret read from the environment');
  t.same(row('INGESTION_EMBEDDING_API_KEY')?.variables, ['INGESTION_EMBEDDING_BASE_URL', 'INGESTION_EMBEDDING_API_KEY'], 'an option and a secret of one meaning share a row');
  t.same(row('PORT'), { variables: ['PORT', 'HOST'], default: '`8080`, `127.0.0.1`', description: 'Listen address (through the default manifest)' });
  t.match(row('LLM_BASE_URL'), { default: 'unset (offline responder)' });
});

t.test('an option fed from the manifest without a description is refused', async (t) => {
  const dir = await t.testdir({ 'manifest.yaml': 'plugins:\n  - plugin: ./plugins/events\n    options:\n      dispatchBatchSize: ${EVENTS_DISPATCH_BATCH:100}\n' });
  await t.rejects(settingRows(`${dir}/manifest.yaml`), { message: /events: option dispatchBatchSize \(EVENTS_DISPATCH_BATCH\) has no description/ });
});
