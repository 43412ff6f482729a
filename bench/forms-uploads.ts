// Memory of anonymous form uploads: 100 concurrent uploads of the largest
// file (FORMS_MAX_FILE_BYTES, 10 MB by default) sent at once over loopback to
// POST /api/forms/files of the platform, beside the same 100 uploads to a bare
// hapi route that reads each multipart body whole (hapi's default), in the
// same run; and the platform once more with as many read slots as uploads
// (FORMS_MAX_CONCURRENT_UPLOADS=100: what the slots save). Each server runs
// in its own child process (bench/lib/upload-server.ts) and samples its own
// RSS every 50 ms: printed are the idle RSS, the peak and the peak above idle
// of each, and the ratio to the baseline. The platform's target: under 300 MB
// above idle. Run with `npm run bench:forms-uploads`. Verified after the run:
// every upload answered 201 and the platform stored every file, whole.
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 100);
const MAX_FILE_BYTES = Number(process.env.FORMS_MAX_FILE_BYTES || 10 * 1024 * 1024);
const TARGET_MB = 300;
const SERVER_SCRIPT = fileURLToPath(new URL('./lib/upload-server.ts', import.meta.url));
const MB = 1024 * 1024;
/** A 1×1 PNG's bytes, then zeros up to the largest file: detected as image/png. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const FILE = Buffer.concat([PNG, Buffer.alloc(MAX_FILE_BYTES - PNG.length)]);

interface Memory {
  idle: number;
  peak: number;
  stored?: { files: number; bytes: number };
}

interface Figures extends Memory {
  statuses: Record<number, number>;
  seconds: number;
}

function next<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const exit = (code: number) => reject(new Error(`the server exited (${code}) before answering`));
    child.once('exit', exit);
    child.once('message', (message) => {
      child.off('exit', exit);
      resolve(message as T);
    });
  });
}

/** One multipart upload of FILE; resolves with the status. */
function upload(url: string, tenant: string): Promise<number> {
  const boundary = '----benchuploads';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST', agent: false,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + FILE.length + tail.length, 'x-tenant-id': tenant },
    }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.write(head);
    request.write(FILE);
    request.end(tail);
  });
}

async function measure(role: 'platform' | 'bare', env: Record<string, string> = {}): Promise<Figures> {
  const child = fork(SERVER_SCRIPT, [role], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...env } });
  try {
    const { url, tenant } = await next<{ url: string; tenant: string }>(child);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // idle samples
    child.send({ command: 'start' });
    const started = performance.now();
    const statuses: Record<number, number> = {};
    for (const status of await Promise.all(Array.from({ length: UPLOADS }, () => upload(url, tenant).catch(() => 0)))) statuses[status] = (statuses[status] ?? 0) + 1;
    const seconds = (performance.now() - started) / 1000;
    const stopped = next<Memory>(child);
    child.send({ command: 'stop' });
    return { ...(await stopped), statuses, seconds };
  } finally {
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
  }
}

const mb = (bytes: number) => (bytes / MB).toFixed(0);
function row(name: string, f: Figures): string {
  const answers = Object.entries(f.statuses).map(([status, count]) => `${count}×${status}`).join(' ');
  return `${name.padEnd(44)} ${mb(f.idle).padStart(8)} ${mb(f.peak).padStart(8)} ${mb(f.peak - f.idle).padStart(10)} ${f.seconds.toFixed(1).padStart(7)}  ${answers}`;
}

if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through `npm run bench:forms-uploads`');
const baseline = await measure('bare');
const platform = await measure('platform');
const unbounded = await measure('platform', { FORMS_MAX_CONCURRENT_UPLOADS: String(UPLOADS) });
console.log(`node ${process.version}, ${os.cpus().length} cores, ${UPLOADS} concurrent uploads of ${MAX_FILE_BYTES} bytes over loopback, RSS sampled every 50 ms`);
console.log(`${'target'.padEnd(44)} ${'idle MB'.padStart(8)} ${'peak MB'.padStart(8)} ${'above MB'.padStart(10)} ${'seconds'.padStart(7)}  answers`);
console.log(row('baseline: bare hapi, bodies read whole', baseline));
console.log(row('platform: POST /api/forms/files, anonymous', platform));
console.log(row(`platform, ${UPLOADS} read slots (no bound)`, unbounded));
const above = platform.peak - platform.idle;
console.log(`ratio (platform/baseline) of RSS above idle: ${(above / (baseline.peak - baseline.idle)).toFixed(3)}; target under ${TARGET_MB} MB above idle: ${above < TARGET_MB * MB ? 'met' : 'NOT MET'}`);
console.log(`verified: ${platform.stored?.files} files, ${platform.stored?.bytes} bytes stored (without the bound: ${unbounded.stored?.files}, ${unbounded.stored?.bytes})`);
const failures: string[] = [];
if (baseline.statuses[201] !== UPLOADS || platform.statuses[201] !== UPLOADS) failures.push('some uploads were not answered 201');
if (platform.stored?.files !== UPLOADS || platform.stored.bytes !== UPLOADS * MAX_FILE_BYTES) failures.push('the platform did not store every file whole');
if (above >= TARGET_MB * MB) failures.push(`the platform took ${mb(above)} MB above idle`);
for (const failure of failures) console.error(`NOT VERIFIED: ${failure}`);
if (failures.length) process.exitCode = 1;
