// The embedded default database: PGlite (WASM Postgres with pgvector and
// pg_trgm) in this process, served on a loopback socket so that pg, pg-boss
// and graphile-worker connect to it as to any Postgres. Data lives in the
// data dir; a small file there tells the CLI where a running server listens.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const ENDPOINT_FILE = 'embedded.json';

/** The URL of an embedded database another process of this data dir is serving, if any. */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  try {
    const { url, pid } = JSON.parse(await readFile(path.join(dataDir, ENDPOINT_FILE), 'utf8')) as { url: string; pid: number };
    process.kill(pid, 0);
    return url;
  } catch {
    return undefined;
  }
}

export async function startEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  const dbDir = path.join(dataDir, 'pglite');
  await mkdir(dbDir, { recursive: true });
  const db = await PGlite.create(dbDir, { extensions: { vector, pg_trgm } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 64 });
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  const endpointFile = path.join(dataDir, ENDPOINT_FILE);
  await writeFile(endpointFile, JSON.stringify({ url, pid: process.pid }));
  return {
    url,
    async stop() {
      await rm(endpointFile, { force: true });
      await server.stop();
      await db.close();
    },
  };
}
