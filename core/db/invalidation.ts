// Cross-process cache invalidation (core.invalidation) over PostgreSQL's
// LISTEN/NOTIFY: a cache subscribes to a channel named for its purpose
// (`embed.clients`, `tenancy.api-keys`, …), and whoever changes what it
// caches publishes on that channel, so every process on the database drops
// its copy at once instead of when its TTL runs out. Each process holds one
// LISTEN connection (outside the pool) for all channels; a lost connection is
// opened again with backoff (250 ms doubling to 30 s). A subscriber is told
// `missed` whenever messages may have been lost (each time the connection is
// up again, and once its channel is listened to): it drops everything then.
// Caches keep their TTL: while the connection is down (and on the embedded
// database, one process, where NOTIFY is not delivered) the TTL is what
// bounds staleness. A process's own messages come back to it too.
import pg from 'pg';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Logger } from 'pino';

const CHANNEL = /^[a-z][a-z0-9_.-]{0,49}$/;
const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 30_000;
/** NOTIFY payloads are limited to 8000 bytes; a message is a short key. */
const MAX_PAYLOAD = 1000;

export interface InvalidationHandlers {
  /** A message published on the channel (by any process, this one included). */
  message(payload: string): void;
  /** Messages may have been missed: drop everything cached. */
  missed(): void;
}

export interface InvalidationApi {
  /** Listens on `channel` (lowercase, `[a-z0-9_.-]`) for the life of the process. */
  subscribe(channel: string, handlers: InvalidationHandlers): void;
  /**
   * Sends `payload` to every process subscribed to `channel`: at once, or,
   * given a transaction, when it commits (never after a rollback). Never
   * throws: a failure is logged and the subscribers' TTL applies.
   */
  publish(channel: string, payload?: string, trx?: Kysely<any>): Promise<void>;
}

const physical = (channel: string) => `platform:${channel}`;

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`Invalid invalidation channel: ${channel}`);
}

export class InvalidationBus implements InvalidationApi {
  private readonly subscribers = new Map<string, InvalidationHandlers[]>();
  private readonly db: Kysely<any>;
  private readonly connectionString: string | undefined;
  private readonly notifies: boolean;
  private readonly logger: Logger;
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private backoffMs = MIN_BACKOFF_MS;
  private stopped = false;

  /**
   * `listen`: the connection string of the LISTEN connection (undefined: a
   * CLI command, which only publishes); `notifies` false: nothing to tell
   * (the embedded database, which one process uses).
   */
  constructor(db: Kysely<any>, options: { listen: string | undefined; notifies: boolean }, logger: Logger) {
    this.db = db;
    this.connectionString = options.notifies ? options.listen : undefined;
    this.notifies = options.notifies;
    this.logger = logger;
  }

  /** Whether messages from other processes arrive now. */
  get live(): boolean {
    return this.client !== undefined;
  }

  subscribe(channel: string, handlers: InvalidationHandlers): void {
    checkChannel(channel);
    const list = this.subscribers.get(channel);
    if (list) {
      list.push(handlers);
      return;
    }
    this.subscribers.set(channel, [handlers]);
    if (!this.connectionString || this.stopped) return;
    const client = this.client;
    if (client) {
      void client.query(`LISTEN ${client.escapeIdentifier(physical(channel))}`)
        .then(() => handlers.missed(), (err) => this.lost(client, err));
    } else {
      this.connect();
    }
  }

  async publish(channel: string, payload = '', trx?: Kysely<any>): Promise<void> {
    checkChannel(channel);
    if (payload.length > MAX_PAYLOAD) throw new Error(`Invalidation payload over ${MAX_PAYLOAD} characters on ${channel}`);
    if (!this.notifies) return;
    try {
      await sql`SELECT pg_notify(${physical(channel)}, ${payload})`.execute(trx ?? this.db);
    } catch (err) {
      if (trx) throw err;
      this.logger.warn({ err, channel }, 'invalidation: could not publish; other processes see the change when their cache expires');
    }
  }

  /** Closes the LISTEN connection (the process is stopping). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.connecting?.catch(() => {});
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private connect(): void {
    if (this.connecting || this.client || this.stopped || !this.connectionString) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => this.deliver(message.channel, message.payload ?? ''));
    this.connecting = (async () => {
      try {
        await client.connect();
        const channels = [...this.subscribers.keys()];
        if (channels.length > 0) await client.query(channels.map((c) => `LISTEN ${client.escapeIdentifier(physical(c))}`).join('; '));
        if (this.stopped) {
          await client.end().catch(() => {});
          return;
        }
        this.client = client;
        this.backoffMs = MIN_BACKOFF_MS;
        for (const list of this.subscribers.values()) for (const handlers of list) this.safely(() => handlers.missed());
      } catch (err) {
        this.lost(client, err);
      } finally {
        this.connecting = undefined;
      }
    })();
  }

  private lost(client: pg.Client, err?: unknown): void {
    if (this.client === client) this.client = undefined;
    client.removeAllListeners('end');
    client.on('error', () => {});
    void client.end().catch(() => {});
    if (this.stopped || this.retryTimer) return;
    this.logger.warn({ err, retryInMs: this.backoffMs }, 'invalidation: the LISTEN connection is down; caches fall back to their TTL until it is back');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, this.backoffMs);
    this.retryTimer.unref();
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs * 2);
  }

  private deliver(channelName: string, payload: string): void {
    if (!channelName.startsWith('platform:')) return;
    for (const handlers of this.subscribers.get(channelName.slice('platform:'.length)) ?? []) this.safely(() => handlers.message(payload));
  }

  private safely(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.logger.error({ err }, 'invalidation: a subscriber failed');
    }
  }
}
