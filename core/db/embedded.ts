// The embedded default database: PGlite (WASM Postgres with pgvector and
// pg_trgm) in this process, served on a loopback socket so that pg, pg-boss
// and graphile-worker connect to it as to any Postgres. Data lives in the
// data dir. PGlite must never open one data dir from two processes (it does not
// detect it and the files get corrupted), so the process that opens it holds
// embedded.json there: created atomically before opening, then completed with
// the socket's URL, which CLI commands use to go through a running server.
// PGlite itself runs in a worker thread (embedded-engine.ts); the socket
// server and its session queue run here.
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { EmbeddedEngine, type EngineOptions } from './embedded-engine.ts';
import { SessionQueue, type ConnectionControl } from './embedded-session.ts';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** Who holds the data dir: a server (others connect to its URL) or a CLI command (others wait). */
type HolderRole = 'server' | 'cli';

interface Holder {
  pid: number;
  role: HolderRole;
  /** Absent while the holder is still opening PGlite. */
  url?: string;
}

export class EmbeddedBusyError extends Error {
  override name = 'EmbeddedBusyError';
}

const HOLDER_FILE = 'embedded.json';
const POLL_MS = 100;
/** Data dirs this process has open: the holder file cannot tell this process's holders apart. */
const openHere = new Set<string>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readHolder(file: string): Promise<Holder | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Holder;
  } catch {
    return undefined; // absent (or, for an instant, being replaced)
  }
}

function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port), timeout: 2000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true)).once('error', () => done(false)).once('timeout', () => done(false));
  });
}

/** A holder is stale when its process is gone, or its pid was reused and nothing answers at its URL. */
async function isLive(holder: Holder): Promise<boolean> {
  if (holder.pid === process.pid) return false; // left by an earlier life of this pid (container restart)
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return holder.url ? accepts(holder.url) : true;
}

/**
 * The URL of a server serving this data dir, if one runs; waits (up to
 * waitMs) for one that is still starting. A CLI command holding the dir is
 * not a server: callers then open PGlite themselves, after it is done.
 */
export async function runningEmbeddedUrl(dataDir: string, waitMs = 60_000): Promise<string | undefined> {
  const file = path.join(dataDir, HOLDER_FILE);
  const until = Date.now() + waitMs;
  for (;;) {
    const holder = await readHolder(file);
    if (!holder || holder.role !== 'server' || !(await isLive(holder))) return undefined;
    if (holder.url) return holder.url;
    if (Date.now() > until) throw new EmbeddedBusyError(`the platform in process ${holder.pid} is still opening ${dataDir}`);
    await sleep(POLL_MS);
  }
}

/** Creates the holder file atomically (link fails if it exists); waits out CLI holders, fails on a live server. */
async function acquire(dataDir: string, role: HolderRole, waitMs: number): Promise<string> {
  const file = path.join(dataDir, HOLDER_FILE);
  const draft = `${file}.${process.pid}.tmp`;
  await writeFile(draft, JSON.stringify({ pid: process.pid, role } satisfies Holder), { mode: 0o600 });
  const until = Date.now() + waitMs;
  try {
    for (;;) {
      try {
        await link(draft, file);
        return file;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = await readHolder(file);
      if (holder && (await isLive(holder))) {
        if (holder.role === 'server' || Date.now() > until) {
          const where = holder.url ? ` at ${holder.url}` : '';
          throw new EmbeddedBusyError(
            `the embedded database in ${dataDir} is in use by process ${holder.pid} (${holder.role}${where}); stop it first, or remove ${file} if no such process runs`,
          );
        }
        await sleep(POLL_MS);
      } else if (holder) {
        // Stale (crash, kill -9): PGlite recovers the files on open. Two processes
        // clearing the same stale file at the same instant could both win; that
        // needs two starts within milliseconds of each other after a crash.
        await rm(file, { force: true });
      } else {
        await sleep(POLL_MS); // between another process's link and our read: look again
      }
    }
  } finally {
    await rm(draft, { force: true });
  }
}

/**
 * Opens PGlite on dataDir/pglite and serves it on 127.0.0.1 (a free port).
 * role 'server': a second server on the same dir fails at once; 'cli': waits
 * (up to waitMs) for another command to finish with the dir.
 */
export async function startEmbeddedDatabase(
  dataDir: string,
  options: { role?: HolderRole; waitMs?: number; onRestart?: EngineOptions['onRestart'] } = {},
): Promise<EmbeddedDatabase> {
  const role = options.role ?? 'server';
  const dir = path.resolve(dataDir);
  if (openHere.has(dir)) throw new EmbeddedBusyError(`the embedded database in ${dir} is already open in this process`);
  await mkdir(path.join(dir, 'pglite'), { recursive: true });
  const file = await acquire(dir, role, options.waitMs ?? 30_000);
  openHere.add(dir);
  let db: EmbeddedEngine | undefined;
  let server: PGLiteSocketServer | undefined;
  try {
    db = await EmbeddedEngine.open(path.join(dir, 'pglite'), { onRestart: options.onRestart });
    // pg's pool, pg-boss's pool and graphile-worker together hold about 15 connections.
    // The server reads only waitReady of its db: the session queue below does the rest.
    server = new PGLiteSocketServer({ db: db as unknown as PGlite, host: '127.0.0.1', port: 0, maxConnections: 64 });
    // The loopback port is open to every local user: a connection needs this
    // process's password, generated per start. It reaches others only in the
    // URL of embedded.json (owner-only, for this user's CLI commands).
    const password = randomBytes(24).toString('hex');
    installSessionQueue(server, db, password);
    await server.start();
    const url = `postgres://postgres:${password}@${server.getServerConn()}/postgres?sslmode=disable`;
    await publish(file, { pid: process.pid, role, url });
    const [openDb, openServer] = [db, server];
    return {
      url,
      async stop() {
        // Closing: drop the URL first, so others wait for the file to go instead
        // of taking a closed socket for a stale holder while PGlite still closes.
        await publish(file, { pid: process.pid, role });
        await openServer.stop();
        await openDb.close();
        await release(file);
        openHere.delete(dir);
      },
    };
  } catch (err) {
    await server?.stop().catch(() => {});
    await db?.close().catch(() => {});
    await release(file);
    openHere.delete(dir);
    throw err;
  }
}

/** Replaces the holder file (rename is atomic: readers never see a half-written one). */
async function publish(file: string, holder: Holder): Promise<void> {
  const draft = `${file}.${process.pid}.tmp`;
  // Owner-only: the URL carries the socket's password.
  await writeFile(draft, JSON.stringify(holder), { mode: 0o600 });
  await rename(draft, file);
}

/** Removes the holder file if it is still ours. */
async function release(file: string): Promise<void> {
  if ((await readHolder(file))?.pid === process.pid) await rm(file, { force: true });
}

interface SocketHandler {
  readonly handlerId: number;
  detach(close: boolean): unknown;
}

/** See embedded-session.ts: replaces the library's per-message queue before any connection exists. */
function installSessionQueue(server: PGLiteSocketServer, db: EmbeddedEngine, password: string): void {
  const internals = server as unknown as { queryQueue?: { enqueue?: unknown }; handlers?: Set<SocketHandler> };
  const handlers = internals.handlers;
  if (typeof internals.queryQueue?.enqueue !== 'function' || !(handlers instanceof Set)) {
    throw new Error('@electric-sql/pglite-socket changed: its queryQueue or handlers are gone; check core/db/embedded-session.ts against it');
  }
  const close = (handler: SocketHandler) => {
    handlers.delete(handler); // detach does not remove it, and the set counts toward maxConnections
    void handler.detach(true);
  };
  const connections: ConnectionControl = {
    closeAll(except) {
      for (const handler of [...handlers]) if (handler.handlerId !== except) close(handler);
    },
    close(handlerId) {
      for (const handler of [...handlers]) if (handler.handlerId === handlerId) close(handler);
    },
  };
  internals.queryQueue = new SessionQueue(db, password, connections);
}
