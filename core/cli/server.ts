// How a CLI command that calls the running server finds it, as the database
// commands find the embedded database: `--url`, else PLATFORM_URL, else the
// address `platform serve` wrote into the data directory (server.json, while
// its process lives), else http://127.0.0.1:$PORT. Its token is `--token`,
// else PLATFORM_TOKEN, else ADMIN_TOKEN; without one the command says which
// to give. A server that cannot be reached is one line naming its address
// and what to do, never a stack.
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT_DIR } from '../paths.ts';
import { UsageError } from './commands.ts';

/** Where `platform serve` records its address in the data directory (owner-only, removed when it stops). */
export const SERVER_FILE = 'server.json';

/** The options of a command that calls the server. */
export const serverOptions = {
  url: { type: 'string', description: 'server base URL (default PLATFORM_URL, else the server running on this data directory, else http://127.0.0.1:$PORT)' },
  token: { type: 'string', description: 'bearer token of an admin or the super-admin (default PLATFORM_TOKEN or ADMIN_TOKEN)' },
} as const;

const dataDirOf = (env: NodeJS.ProcessEnv) => path.resolve(ROOT_DIR, env.PLATFORM_DATA_DIR || '.data');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The address of the server `platform serve` runs on this data directory, when its process is alive. */
export function runningServerUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  let recorded: { pid?: unknown; url?: unknown };
  try {
    recorded = JSON.parse(readFileSync(path.join(dataDirOf(env), SERVER_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  const { pid, url } = recorded;
  return typeof url === 'string' && Number.isInteger(pid) && alive(pid as number) ? url : undefined;
}

/** The server's base URL, without a trailing slash. */
export function serverUrl(options: { url?: string }, env: NodeJS.ProcessEnv = process.env): string {
  return (options.url || env.PLATFORM_URL || runningServerUrl(env) || `http://127.0.0.1:${env.PORT || 8080}`).replace(/\/+$/, '');
}

/** The bearer token to call the server with, or a usage error naming where to give one. */
export function serverToken(options: { token?: string }, env: NodeJS.ProcessEnv = process.env): string {
  const token = options.token || env.PLATFORM_TOKEN || env.ADMIN_TOKEN;
  if (!token) {
    throw new UsageError('this command calls the running server and needs a token: give --token, or set PLATFORM_TOKEN '
      + '(a user\'s: platform tokens issue --sub <user>) or ADMIN_TOKEN (the super-admin token printed at the first start)');
  }
  return token;
}

/** `fetch`, with a server that cannot be reached turned into a usage error naming its address and what to do. */
export async function serverFetch(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    const cause = (err as { cause?: { code?: unknown } }).cause?.code;
    throw new UsageError(`cannot reach the platform at ${new URL(url).origin}${typeof cause === 'string' ? ` (${cause})` : ''}: `
      + 'start it (npm start), or give its address with --url or PLATFORM_URL');
  }
}

/** Records the listening server's address for the CLI (owner-only). */
export async function recordServer(dataDir: string, url: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(path.join(dataDir, SERVER_FILE), JSON.stringify({ pid: process.pid, url }), { mode: 0o600 });
}

/** Removes the record, if it is this process's. */
export async function forgetServer(dataDir: string): Promise<void> {
  const file = path.join(dataDir, SERVER_FILE);
  try {
    if (JSON.parse(readFileSync(file, 'utf8')).pid === process.pid) await rm(file, { force: true });
  } catch {
    // none, or not readable: nothing to remove
  }
}
