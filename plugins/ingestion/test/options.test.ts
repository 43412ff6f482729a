// Ingestion's settings are manifest options fed from their environment
// variables: every manifest that loads ingestion passes each one as
// `${VARIABLE:default}` with the README's default, the variables reach the
// settings through the real manifest reader and plugin loader, and a
// malformed value stops the server and the CLI with one line naming it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { readManifest } from '../../../core/manifest.ts';
import { resolvePlugins } from '../../../core/plugin-loader.ts';
import { ROOT_DIR } from '../../../core/paths.ts';
import { OPTION_VARIABLES, defaultOptions, type IngestionOptions } from '../options.ts';
import { embeddingProblem, settingsOf } from '../config/settings.ts';
import { runCli } from 'agent-platform/sdk/testing';

const MANIFESTS = [
  'manifests/default.yaml',
  'test/fixtures/manifests/ingestion.yaml',
  'test/fixtures/manifests/ingestion-embedded.yaml',
  'test/fixtures/manifests/chat-documents.yaml',
  'test/fixtures/manifests/chat-embedded-documents.yaml',
  'test/fixtures/manifests/citations.yaml',
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

async function ingestionOptions(manifest: string, env: Record<string, string>): Promise<IngestionOptions> {
  const plugins = await resolvePlugins(await readManifest(path.join(ROOT_DIR, manifest), env), ROOT_DIR);
  return plugins.find((plugin) => plugin.name === 'ingestion')!.options as unknown as IngestionOptions;
}

t.test('every manifest loading ingestion passes each option from its variable, with its default', async (t) => {
  const defaults = defaultOptions() as unknown as Record<string, unknown>;
  for (const manifest of MANIFESTS) {
    const text = await readFile(path.join(ROOT_DIR, manifest), 'utf8');
    const start = text.indexOf('- plugin: ./plugins/ingestion');
    t.ok(start >= 0, `${manifest} loads ingestion`);
    const next = text.indexOf('\n  - plugin:', start);
    const entry = text.slice(start, next === -1 ? undefined : next);
    const missing = Object.entries(OPTION_VARIABLES).filter(([key, variable]) =>
      !new RegExp(`\\n\\s+${key}: ${escape(`\${${variable}:${defaults[key] ?? ''}}`)}\\n`).test(`${entry}\n`));
    t.same(missing, [], `${manifest}: every option as \${VARIABLE:default}`);
    t.equal(entry.match(/^\s+\w+: \$\{/gm)?.length, Object.keys(OPTION_VARIABLES).length, `${manifest}: no other option`);
  }
});

t.test('unset variables give the documented defaults, set ones reach the settings', async (t) => {
  const defaults = settingsOf(await ingestionOptions('manifests/default.yaml', {}), {}, '/data');
  t.match(defaults, {
    chunkSize: 500, chunkOverlap: 50, tokenizer: 'cl100k_base', maxConcurrent: 5, quotaTtlSeconds: 3600,
    parseTimeoutSeconds: 600, chunkTimeoutSeconds: 120, embedTimeoutSeconds: 300, ocrEnabled: true, maxDocSize: 52_428_800,
    maxActivities: 2, pageImageDpi: 144, maxRenderPages: 300, stageRetries: 2, reconcileBatch: 10, parserMaxMemoryMb: 1024,
    embedding: { provider: 'none', model: 'text-embedding-3-small', dims: 1536, batch: 100, retries: 3 },
    vlm: { enabled: false, model: 'gemini/gemini-3-flash', maxTokens: 8192, maxDrawingPages: 100, baseUrl: undefined },
    visionRetrieval: { enabled: false, active: false, model: 'clip-vit-b-32', dims: 512 },
    unstructured: { url: undefined, strategy: 'auto' },
    sync: { roots: ['/data/sync'], allowPrivateNetworks: false, concurrency: 4 },
  });

  const env = {
    INGESTION_CHUNK_SIZE: '300', INGESTION_OCR_ENABLED: 'no', INGESTION_EMBEDDING_BASE_URL: 'http://127.0.0.1:9/v1/',
    INGESTION_EMBEDDING_API_KEY: 'sk-test', INGESTION_SYNC_ROOTS: '/a, /b', MAX_RENDER_PAGES: '7', INGESTION_VLM_MODEL: '2024',
  };
  const set = settingsOf(await ingestionOptions('manifests/default.yaml', env), env, '/data');
  t.match(set, {
    chunkSize: 300, ocrEnabled: false, maxRenderPages: 7, sync: { roots: ['/a', '/b'] }, vlm: { model: '2024' },
    embedding: { provider: 'endpoint', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-test' },
  });
  const both = await ingestionOptions('manifests/default.yaml', { MAX_RENDER_PAGES: '7', INGESTION_MAX_RENDER_PAGES: '0' });
  t.equal(settingsOf(both, {}, '/data').maxRenderPages, 0, 'INGESTION_MAX_RENDER_PAGES wins over MAX_RENDER_PAGES');
});

t.test('a malformed value is one line naming the option and its variable', async (t) => {
  const cases: [Record<string, string>, string][] = [
    [{ INGESTION_CHUNK_SIZE: 'abc' }, 'chunkSize (INGESTION_CHUNK_SIZE) must be a number, got "abc"'],
    [{ INGESTION_CHUNK_SIZE: '99999' }, 'chunkSize (INGESTION_CHUNK_SIZE) must be at most 8192, got 99999'],
    [{ INGESTION_CHUNK_OVERLAP: '600' }, 'chunkOverlap (INGESTION_CHUNK_OVERLAP) must be smaller than chunkSize (INGESTION_CHUNK_SIZE)'],
    [{ INGESTION_OCR_ENABLED: 'maybe' }, 'ocrEnabled (INGESTION_OCR_ENABLED) must be true or false, got "maybe"'],
    [{ INGESTION_TOKENIZER: 'gpt2' }, 'tokenizer (INGESTION_TOKENIZER) must be one of cl100k_base, o200k_base, p50k_base, r50k_base, got "gpt2"'],
    [{ INGESTION_VLM_BASE_URL: 'ftp://user:secret@host' }, 'vlmBaseUrl (INGESTION_VLM_BASE_URL) must be an http(s) URL'],
  ];
  for (const [env, message] of cases) {
    await t.rejects(ingestionOptions('manifests/default.yaml', env), { name: 'ManifestError', message: `plugin "ingestion" has an invalid option: ${message}` });
  }
});

t.test('a local provider without a model path or a pulled model is refused with what to do', async (t) => {
  const env = { INGESTION_EMBEDDING_PROVIDER: 'local' };
  const settings = settingsOf(await ingestionOptions('manifests/default.yaml', env), env, '/data');
  t.match(settings.embedding, { provider: 'local', modelPath: undefined, pulledModel: undefined });
  t.equal(embeddingProblem(settings),
    'INGESTION_EMBEDDING_PROVIDER is local but there is no model: set INGESTION_EMBEDDING_MODEL_PATH to a model folder, or pull one (platform models pull <name>)');
  const withPath = { ...env, INGESTION_EMBEDDING_MODEL_PATH: '/models/minilm' };
  t.equal(embeddingProblem(settingsOf(await ingestionOptions('manifests/default.yaml', withPath), withPath, '/data')), undefined);
});

t.test('the server and the CLI refuse to start on a malformed value, with that one line', async (t) => {
  const env = { PLATFORM_MANIFEST: 'test/fixtures/manifests/ingestion.yaml', DATABASE_URL: 'postgres://unused@127.0.0.1:1/none', LOG_LEVEL: undefined };
  const expected = 'error: plugin "ingestion" has an invalid option: maxConcurrent (INGESTION_MAX_CONCURRENT) must be at least 1, got 0';
  for (const args of [['serve'], ['search', 'pumps', '--tenant', 'acme']]) {
    const result = await runCli(args, { env: { ...env, INGESTION_MAX_CONCURRENT: '0' }, timeoutMs: 30_000 });
    t.equal(result.code, 1, `${args[0]} exits 1`);
    t.same(result.stderr.trim().split('\n'), [expected], `${args[0]} prints one line`);
    t.equal(result.stdout, '', `${args[0]} did nothing`);
  }
});
