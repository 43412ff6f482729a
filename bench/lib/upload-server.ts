// A server under test of bench/forms-uploads.ts, run as a child process so
// that its resident memory is its own: `platform` (the platform with
// bench/forms-uploads.yaml, a tenant with a public use case taking anonymous
// uploads) or `bare` (a bare hapi route reading each multipart body whole,
// as hapi does by default, without its 10 s payload timeout so that all 100
// finish on a loaded machine). Both take files of FORMS_MAX_FILE_BYTES (the
// environment's, or the default). Over IPC it sends {ready, url, tenant};
// then `start` samples its RSS every 50 ms, and `stop` answers {idle, peak,
// stored} (the idle RSS is the last sample before `start`; `stored` is the
// platform's count and bytes of stored files).
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Hapi from '@hapi/hapi';
import { createPlatform, type Platform } from '../../core/boot.ts';
import { loadConfig } from '../../core/config.ts';

const SAMPLE_MS = 50;
const MANIFEST = fileURLToPath(new URL('../forms-uploads.yaml', import.meta.url));
const TENANT = `bench-uploads-${randomBytes(4).toString('hex')}`;

const send = (message: unknown) => process.send!(message);

async function call(base: string, method: string, path: string, token: string, payload?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method, headers: { authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const answer = (await response.json()) as Record<string, any>;
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function startPlatform() {
  const adminToken = `adm_${randomBytes(16).toString('hex')}`;
  const config = loadConfig({
    ...process.env, ADMIN_TOKEN: adminToken, PLATFORM_MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent', PLATFORM_MANIFEST: MANIFEST,
  });
  const platform = await createPlatform({ config, port: 0, host: '127.0.0.1', announceAdminToken: () => {} });
  await platform.start();
  const base = platform.server.info.uri;
  await call(base, 'POST', '/api/admin/tenants', adminToken, { id: TENANT });
  await call(base, 'POST', '/api/admin/users', adminToken, { sub: `${TENANT}-admin`, display_name: 'Bench', organizations: [TENANT], roles: ['admin'] });
  const { access_token: token } = await call(base, 'POST', `/api/admin/users/${TENANT}-admin/tokens`, adminToken);
  // A title: the asset target's standard mapping feeds its required name from it.
  const schema = {
    display: 'form',
    components: [{ type: 'textfield', key: 'title', label: 'Title', input: true }, { type: 'file', key: 'photos', label: 'Photos', input: true, multiple: true, storage: 'base64' }],
  };
  const definition = await call(base, 'POST', '/api/admin/forms/definitions', token, { name: 'photos', schema });
  await call(base, 'POST', '/api/admin/forms/use-cases', token, {
    name: 'bench', form_definition_id: definition.id, target_model: 'assets.Asset', target_config: { category: 'bench' }, access: 'public',
  });
  return { platform, url: `${base}/api/forms/files` };
}

async function startBare(maxFileBytes: number) {
  const server = Hapi.server({ port: 0, host: '127.0.0.1' });
  server.route({
    method: 'POST', path: '/upload',
    options: { payload: { maxBytes: maxFileBytes + 64 * 1024, output: 'data', parse: true, multipart: { output: 'data' }, allow: ['multipart/form-data'], timeout: false } },
    handler: (request, h) => h.response({ size: Buffer.byteLength((request.payload as { file: Buffer }).file) }).code(201),
  });
  await server.start();
  return { server, url: `${server.info.uri}/upload` };
}

async function stored(platform: Platform) {
  const { rows } = await platform.core.pool.query<{ files: number; bytes: string }>(
    'SELECT count(*)::int AS files, coalesce(sum(size), 0)::text AS bytes FROM forms_files WHERE tenant_id = $1', [TENANT]);
  return { files: rows[0].files, bytes: Number(rows[0].bytes) };
}

let platform: Platform | undefined;
let bare: Hapi.Server | undefined;
if (process.argv[2] === 'platform') {
  const started = await startPlatform();
  platform = started.platform;
  send({ ready: true, url: started.url, tenant: TENANT });
} else {
  const started = await startBare(Number(process.env.FORMS_MAX_FILE_BYTES || 10 * 1024 * 1024));
  bare = started.server;
  send({ ready: true, url: started.url, tenant: TENANT });
}

let idle = process.memoryUsage.rss();
const idleSampler = setInterval(() => (idle = process.memoryUsage.rss()), SAMPLE_MS);
let peak = 0;
let sampler: NodeJS.Timeout | undefined;
process.on('message', async (message: { command: string }) => {
  if (message.command === 'start') {
    clearInterval(idleSampler);
    peak = idle;
    sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), SAMPLE_MS);
  } else if (message.command === 'stop') {
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
    send({ idle, peak, stored: platform ? await stored(platform) : undefined });
    await platform?.stop();
    await bare?.stop();
    process.disconnect();
  }
});
