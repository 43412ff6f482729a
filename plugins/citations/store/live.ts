// citationVerified: pushing each completed verification to the tenant's
// GraphQL subscribers (SSE).
//
// In this process a verification is published to local subscribers once its
// transaction has committed. Other processes learn of it through Postgres:
// the verifying transaction sends a NOTIFY (delivered only if it commits),
// and a process with subscribers LISTENs, loads the citations and publishes
// them. A process ignores its own notifications (it published them already).
// On the embedded PGlite default there is one process and NOTIFY does not
// cross connections, so only the local path runs.
//
// Delivery is live, at most once, while connected: a subscriber that
// reconnects catches up with the `citations` query (filter dateFrom).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Logger } from 'pino';
import { Repeater, SlidingBuffer } from 'agent-platform/sdk';
import type { TenantTransaction } from 'agent-platform/sdk';
import type { Citation } from '../api.ts';

const CHANNEL = 'citations_verified';
/** Ids per NOTIFY: 100 × 37 characters stays well under Postgres's 8,000-byte payload limit. */
const IDS_PER_NOTIFY = 100;
/** Events kept for a slow subscriber; beyond this the oldest are dropped. */
const SUBSCRIBER_BUFFER = 1000;
const RELISTEN_DELAY_MS = 1000;

export interface LiveDeps {
  pool: pg.Pool;
  logger: Logger;
  /** False on the embedded default (one process): no NOTIFY, no LISTEN. */
  crossProcess: boolean;
  /** Loads citations by id in a tenant (for notifications from other processes). */
  load(tenantId: string, ids: string[]): Promise<Citation[]>;
}

type Listener = (citation: Citation) => void;

export function createLive(deps: LiveDeps) {
  const origin = randomUUID();
  const listeners = new Map<string, Set<Listener>>();
  const stoppers = new Set<() => void>();
  let subscribers = 0;
  let client: pg.PoolClient | undefined;
  /** Connections taken from the pool and not yet given back. */
  const held = new Set<pg.PoolClient>();
  let connecting = false;
  let closed = false;

  function publish(citations: readonly Citation[]) {
    for (const citation of citations) {
      for (const listener of listeners.get(citation.tenant_id) ?? []) listener(citation);
    }
  }

  async function onNotification(message: pg.Notification) {
    let parsed: { o: string; t: string; i: string[] };
    try {
      parsed = JSON.parse(message.payload ?? '');
    } catch {
      return;
    }
    if (parsed.o === origin || !listeners.has(parsed.t)) return;
    try {
      publish(await deps.load(parsed.t, parsed.i));
    } catch (err) {
      deps.logger.warn({ err }, 'citations: could not load verified citations announced by another process');
    }
  }

  async function listen() {
    if (!deps.crossProcess || client || connecting || closed || subscribers === 0) return;
    connecting = true;
    let connection: pg.PoolClient | undefined;
    try {
      connection = await deps.pool.connect();
      const taken = connection;
      connection.on('notification', (message) => void onNotification(message));
      connection.on('error', (err) => {
        // Once unlisten has handed the connection back, the pool owns its
        // errors: releasing it again would throw.
        if (!held.delete(taken)) return;
        deps.logger.warn({ err }, 'citations: LISTEN connection failed; listening again');
        if (client === taken) client = undefined;
        taken.release(err);
        setTimeout(() => void listen(), RELISTEN_DELAY_MS).unref();
      });
      held.add(connection);
      await connection.query(`LISTEN ${CHANNEL}`);
      client = connection;
      if (subscribers === 0 || closed) await unlisten();
    } catch (err) {
      if (connection && held.delete(connection)) connection.release(err as Error);
      deps.logger.warn({ err }, 'citations: could not LISTEN; retrying');
      setTimeout(() => void listen(), RELISTEN_DELAY_MS).unref();
    } finally {
      connecting = false;
    }
  }

  async function unlisten() {
    const connection = client;
    client = undefined;
    if (!connection) return;
    try {
      await connection.query(`UNLISTEN ${CHANNEL}`);
      if (held.delete(connection)) connection.release();
    } catch (err) {
      if (held.delete(connection)) connection.release(err as Error);
    }
  }

  return {
    /** In the verifying transaction: tells other processes (at commit). */
    async announce(trx: TenantTransaction, tenantId: string, ids: readonly string[]) {
      if (!deps.crossProcess) return;
      for (let i = 0; i < ids.length; i += IDS_PER_NOTIFY) {
        const payload = JSON.stringify({ o: origin, t: tenantId, i: ids.slice(i, i + IDS_PER_NOTIFY) });
        await sql`SELECT pg_notify(${CHANNEL}, ${payload})`.execute(trx);
      }
    },

    /** After commit: this process's subscribers. */
    publish,

    /** The verified citations of one tenant, as they come. */
    subscribe(tenantId: string): AsyncIterableIterator<Citation> {
      return new Repeater<Citation>(async (push, stop) => {
        const listener: Listener = (citation) => void push(citation);
        let set = listeners.get(tenantId);
        if (!set) listeners.set(tenantId, (set = new Set()));
        set.add(listener);
        stoppers.add(stop);
        subscribers += 1;
        void listen();
        await stop;
        stoppers.delete(stop);
        set.delete(listener);
        if (set.size === 0) listeners.delete(tenantId);
        subscribers -= 1;
        if (subscribers === 0) await unlisten();
      }, new SlidingBuffer(SUBSCRIBER_BUFFER));
    },

    subscriberCount: () => subscribers,

    /** Ends every subscription (their SSE responses complete) and stops listening: the server is stopping. */
    async close() {
      closed = true;
      for (const stop of [...stoppers]) stop();
      await unlisten();
    },
  };
}

export type Live = ReturnType<typeof createLive>;
