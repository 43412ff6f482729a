// Who may talk to PGlite's single backend session next. PGlite has one session
// and pglite-socket multiplexes every client connection onto it, message by
// message. Its own queue hands the session to another connection whenever no
// transaction *block* is open, which can split one connection's extended-protocol
// exchange (Parse, Bind, Describe, Execute, Sync): another connection's Parse then
// replaces the unnamed statement and the first one's Bind fails ("bind message
// supplies 1 parameters, but prepared statement "" requires 2"), seen with
// graphile-worker under load. This queue, installed in place of the library's
// (same four methods), lets a connection keep the session from its first message
// until it is idle again: outside a transaction block and not in the middle of
// an extended-protocol exchange. Other connections wait (FIFO) meanwhile.
// COPY … FROM STDIN (simple protocol; the lake lands rows with it): PGlite
// cannot resume a COPY across calls, so its CopyData must reach PGlite in the
// same call as the COPY itself (electric-sql/pglite#1028). The query is held
// back and the client told to send its data (a CopyInResponse made here);
// the data is buffered, in memory, up to CopyDone, then all of it goes to
// PGlite in one call whose own CopyInResponse is dropped from the reply. An
// error in the COPY statement itself is therefore reported after the data.
// Not handled: COPY in the extended protocol, and portals left open across
// round trips (pg-cursor), which nothing here uses; a cursor read row by row
// while the same code queries through another connection would wait forever.
//
// It is also the socket's password check. PGlite answers every StartupMessage
// with AuthenticationOk (trust), so any local user could connect to the
// loopback port; here a connection's StartupMessage is held back, the client
// is asked for a password (AuthenticationCleartextPassword: loopback only),
// and only a connection that sends the generated one reaches PGlite.
// Statement budgets: PGlite ignores statement_timeout, so a connection's
// `SET [LOCAL] statement_timeout = <ms>` is noted here (until its transaction
// ends) and the engine's watchdog stops a call that runs past it. The caller
// then gets what PostgreSQL sends, an ERROR 57014 "canceling statement due to
// statement timeout"; PGlite was reopened, so every other connection (whose
// session state, LISTENs included, is gone) is closed at once and the caller's
// as soon as it is idle: their pools connect anew.
import { createHash, timingSafeEqual } from 'node:crypto';
import { EngineCrashed, StatementBudgetExceeded, type EmbeddedEngine } from './embedded-engine.ts';

/** Frontend messages that continue an extended-protocol exchange until Sync. */
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);
const PROTOCOL_3 = 196608;
/** AuthenticationCleartextPassword: 'R', length 8, code 3. */
const ASK_PASSWORD = new Uint8Array([0x52, 0, 0, 0, 8, 0, 0, 0, 3]);

const QUERY = 0x51; // 'Q'
/** ReadyForQuery, idle. */
const READY_IDLE = new Uint8Array([0x5a, 0, 0, 0, 5, 0x49]);
const ROLLBACK = queryMessage('ROLLBACK');
/** CommandComplete "ROLLBACK". */
const COMMAND_COMPLETE_ROLLBACK = new Uint8Array([0x43, 0, 0, 0, 13, ...Buffer.from('ROLLBACK\0', 'utf8')]);
/**
 * A simple query made only of SET statements, one of them statement_timeout.
 * Whole-message and quote-free, so that no literal inside a tenant's query
 * (`SELECT 'x; SET statement_timeout = 0'`) can change its own budget.
 */
const BUDGET = /^\s*(?:SET\s[^;']*;\s*)*SET\s+(?:LOCAL\s+|SESSION\s+)?statement_timeout\s*(?:=|TO)\s*'?(\d+)\s*(ms|s|min)?'?\s*(?:;\s*SET\s[^;']*)*;?\s*$/i;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, min: 60_000 };
const COPY_DATA = 0x64; // 'd'
const COPY_DONE = 0x63; // 'c'
const COPY_FAIL = 0x66; // 'f'
const COPY_IN_RESPONSE = 0x47; // 'G'

/** The format of a simple-protocol `COPY … FROM STDIN` query (undefined for any other message). */
function copyInFormat(message: Uint8Array): 'text' | 'binary' | undefined {
  if (message[0] !== QUERY) return undefined;
  const text = Buffer.from(message.buffer, message.byteOffset + 5, Math.max(0, message.byteLength - 6)).toString('utf8');
  if (!/^\s*copy\s/i.test(text) || !/\bfrom\s+stdin\b/i.test(text) || /\bto\s+stdout\b/i.test(text)) return undefined;
  return /\bformat\s+binary\b|\(\s*binary\b/i.test(text) ? 'binary' : 'text';
}

/** CopyInResponse: the overall format, no per-column formats (clients do not read them). */
function copyInResponse(format: 'text' | 'binary'): Uint8Array {
  return new Uint8Array([COPY_IN_RESPONSE, 0, 0, 0, 7, format === 'binary' ? 1 : 0, 0, 0]);
}

/** Passes a reply through, message by message, without its CopyInResponse (the client got ours). */
function withoutCopyInResponse(onData: (data: Uint8Array) => void): { write(data: Uint8Array): void; end(): void } {
  let pending = Buffer.alloc(0);
  return {
    write(data) {
      pending = Buffer.concat([pending, data]);
      let start = 0;
      const kept: Buffer[] = [];
      while (pending.length - start >= 5) {
        const length = 1 + pending.readInt32BE(start + 1);
        if (pending.length - start < length) break;
        if (pending[start] !== COPY_IN_RESPONSE) kept.push(pending.subarray(start, start + length));
        start += length;
      }
      pending = pending.subarray(start);
      if (kept.length) onData(new Uint8Array(Buffer.concat(kept)));
    },
    end() {
      if (pending.length) onData(new Uint8Array(pending));
    },
  };
}

function queryMessage(text: string): Uint8Array {
  const body = Buffer.from(`${text}\0`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('Q', 0);
  header.writeInt32BE(4 + body.length, 1);
  return new Uint8Array(Buffer.concat([header, body]));
}

/** The statement budget a message sets (`SET [LOCAL] statement_timeout = …`), in ms; undefined when it sets none. */
function budgetSetBy(message: Uint8Array): number | undefined {
  if (message[0] !== QUERY || message.byteLength > 512) return undefined;
  const view = Buffer.from(message.buffer, message.byteOffset + 5, message.byteLength - 6);
  if (view.indexOf('statement_timeout') < 0) return undefined;
  const match = BUDGET.exec(view.toString('utf8'));
  return match ? Number(match[1]) * UNIT_MS[(match[2] ?? 'ms').toLowerCase()]! : undefined;
}

/** A simple-protocol ROLLBACK (as transaction helpers send it). */
function isRollback(message: Uint8Array): boolean {
  if (message[0] !== QUERY || message.byteLength > 32) return false;
  return /^\s*rollback\s*;?\s*$/i.test(Buffer.from(message.buffer, message.byteOffset + 5, message.byteLength - 6).toString('utf8'));
}

/** Whether a chunk of frontend messages ends its exchange (a simple Query, or a Sync at its end). */
function endsExchange(message: Uint8Array): boolean {
  if (message[0] === QUERY) return true;
  const tail = message.subarray(message.byteLength - SYNC.byteLength);
  return tail.byteLength === SYNC.byteLength && tail.every((byte, i) => byte === SYNC[i]);
}

/** An ErrorResponse; FATAL ones close the connection after them. */
function errorResponse(severity: 'ERROR' | 'FATAL', code: string, message: string): Uint8Array {
  const fields = Buffer.concat([
    Buffer.from(`S${severity}\0V${severity}\0C${code}\0M${message}\0`, 'utf8'),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(4 + fields.length, 1);
  return new Uint8Array(Buffer.concat([header, fields]));
}

const fatal = (code: string, message: string) => errorResponse('FATAL', code, message);

const digest = (value: Uint8Array | string) => createHash('sha256').update(value).digest();

/** Per connection: its StartupMessage while the password is awaited, then 'ok'. */
type AuthState = { startup: Uint8Array } | 'ok';

interface Pending {
  handlerId: number;
  /** A protocol message, or undefined for "this connection is gone: release the session". */
  message: Uint8Array | undefined;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (err: unknown) => void;
}

/** What the queue may do to the socket server's connections. */
export interface ConnectionControl {
  /** Closes every connection but `except`. */
  closeAll(except?: number): void;
  close(handlerId: number): void;
}

export class SessionQueue {
  private readonly engine: EmbeddedEngine;
  private readonly connections: ConnectionControl;
  private readonly passwordDigest: Buffer;
  private readonly auth = new Map<number, AuthState>();
  private queue: Pending[] = [];
  private owner: number | undefined;
  /** The owner sent part of an extended-protocol exchange and not yet its Sync. */
  private midExchange = false;
  /** The owner's COPY FROM STDIN held back with the data received so far (the owner keeps the session). */
  private copyIn: Uint8Array[] | undefined;
  private running = false;
  /** The owner's statement budget (ms, 0: none), until its transaction ends. */
  private budgetMs = 0;
  /** A connection whose exchange the watchdog ended: its messages are dropped up to its Sync. */
  private awaitingSync: number | undefined;
  /** Connections that outlived a reopen of PGlite: closed once idle. */
  private readonly closeWhenIdle = new Set<number>();

  constructor(engine: EmbeddedEngine, password: string, connections: ConnectionControl) {
    this.engine = engine;
    this.connections = connections;
    this.passwordDigest = digest(password);
  }

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const state = this.auth.get(handlerId);
    if (state !== 'ok') {
      // Before PGlite: the password handshake (see authenticate).
      const startup = this.authenticate(handlerId, state, message, onData);
      if (!startup) return Promise.resolve(ASK_PASSWORD.length);
      // The right password: PGlite now gets the StartupMessage (and answers AuthenticationOk…).
      message = startup;
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.pump();
    });
  }

  /**
   * The handshake before PGlite sees a connection: StartupMessage → ask for
   * the password → PasswordMessage. Returns the held StartupMessage once the
   * password is right; throws (the handler closes the socket) otherwise.
   */
  private authenticate(handlerId: number, state: Exclude<AuthState, 'ok'> | undefined, message: Uint8Array, onData: (data: Uint8Array) => void): Uint8Array | undefined {
    const view = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
    if (state === undefined) {
      if (view.length < 8 || view.readInt32BE(4) !== PROTOCOL_3) {
        onData(fatal('08P01', 'expected a startup message'));
        throw new Error('embedded database: protocol violation before authentication');
      }
      this.auth.set(handlerId, { startup: message.slice() });
      onData(ASK_PASSWORD);
      return undefined;
    }
    // PasswordMessage: 'p', length, the password, NUL.
    const password = view[0] === 0x70 && view.length >= 6 ? view.subarray(5, view.length - 1) : undefined;
    if (!password || !timingSafeEqual(digest(password), this.passwordDigest)) {
      this.auth.delete(handlerId);
      onData(fatal('28P01', 'password authentication failed for user "postgres"'));
      throw new Error('embedded database: password authentication failed');
    }
    this.auth.set(handlerId, 'ok');
    return state.startup;
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((item) => {
      // Its release stays queued: a second detach must not fail the first one's wait for it.
      if (item.handlerId !== handlerId || item.message === undefined) return true;
      item.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** Called when a connection closes: if it holds the session, end its exchange and roll back its transaction. */
  clearTransactionIfNeeded(handlerId: number): Promise<void> {
    this.auth.delete(handlerId);
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message: undefined, onData: () => {}, resolve: () => resolve(), reject });
      void this.pump();
    });
  }

  private next(): Pending | undefined {
    const index = this.owner === undefined ? 0 : this.queue.findIndex((item) => item.handlerId === this.owner);
    return index < 0 ? undefined : this.queue.splice(index, 1)[0];
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        if (item.message === undefined) await this.release(item);
        else await this.run(item, item.message);
      }
    } finally {
      this.running = false;
    }
  }

  private async run(item: Pending, message: Uint8Array): Promise<void> {
    if (this.awaitingSync === item.handlerId) return this.dropUntilSync(item, message);
    if (this.closeWhenIdle.has(item.handlerId) && isRollback(message)) return this.rollbackLost(item);
    this.owner = item.handlerId;
    this.budgetMs = budgetSetBy(message) ?? this.budgetMs;
    if (this.copyIn) return this.continueCopyIn(item, message, this.copyIn);
    const format = copyInFormat(message);
    if (format) {
      this.copyIn = [message];
      const response = copyInResponse(format);
      item.onData(response);
      item.resolve(response.length);
      return;
    }
    await this.execute(item, message, item.onData);
  }

  /** The owner's messages while its COPY is held back: data is kept; CopyDone (or CopyFail) sends it all at once. */
  private async continueCopyIn(item: Pending, message: Uint8Array, held: Uint8Array[]): Promise<void> {
    if (message[0] === COPY_DATA) {
      held.push(message);
      item.resolve(0);
      return;
    }
    if (message[0] !== COPY_DONE && message[0] !== COPY_FAIL) {
      item.resolve(0); // Flush, Sync: a server in COPY IN ignores them
      return;
    }
    this.copyIn = undefined;
    // A failed COPY needs none of its data: PGlite fails the statement on the CopyFail.
    const sent = message[0] === COPY_DONE ? [...held, message] : [held[0]!, message];
    const reply = withoutCopyInResponse(item.onData);
    await this.execute(item, new Uint8Array(Buffer.concat(sent)), (data) => reply.write(data));
    reply.end();
  }

  private async execute(item: Pending, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<void> {
    let bytes = 0;
    const send = (data: Uint8Array) => {
      bytes += data.length;
      onData(data);
    };
    try {
      await this.engine.exec(message, send, this.budgetMs);
    } catch (err) {
      if (err instanceof StatementBudgetExceeded) {
        this.sessionLost(item.handlerId);
        send(errorResponse('ERROR', '57014', 'canceling statement due to statement timeout'));
        if (endsExchange(message)) send(READY_IDLE);
        else this.awaitingSync = item.handlerId;
        item.resolve(bytes);
        return;
      }
      if (err instanceof EngineCrashed) this.sessionLost(undefined);
      // PGlite itself failed (not an SQL error, which is a protocol reply): the
      // connection is closed by its handler, which then releases the session.
      item.reject(err);
      return;
    }
    this.midExchange = EXTENDED.has(message[0]!);
    if (!this.midExchange && !this.engine.inTransaction) this.idle(item.handlerId);
    item.resolve(bytes);
  }

  /** The owner is done with the session (outside a transaction and any exchange). */
  private idle(handlerId: number): void {
    this.owner = undefined;
    this.budgetMs = 0;
    if (this.closeWhenIdle.delete(handlerId)) {
      // After its reply has been written.
      setImmediate(() => this.connections.close(handlerId));
    }
  }

  /** PGlite was reopened: no session state survives, so no connection may go on as if it did. */
  private sessionLost(survivor: number | undefined): void {
    this.owner = undefined;
    this.midExchange = false;
    this.copyIn = undefined;
    this.budgetMs = 0;
    if (survivor !== undefined) this.closeWhenIdle.add(survivor);
    this.connections.closeAll(survivor);
  }

  /**
   * The ROLLBACK a client sends after its stopped statement: its transaction
   * went with the old PGlite, so it is answered here, without waiting for the
   * reopen, and the connection closed.
   */
  private rollbackLost(item: Pending): void {
    const reply = Buffer.concat([COMMAND_COMPLETE_ROLLBACK, READY_IDLE]);
    item.onData(new Uint8Array(reply));
    item.resolve(reply.length);
    this.idle(item.handlerId);
  }

  /** After the watchdog answered an unfinished extended exchange: its messages up to Sync go nowhere; Sync gets ReadyForQuery. */
  private dropUntilSync(item: Pending, message: Uint8Array): void {
    if (endsExchange(message)) {
      this.awaitingSync = undefined;
      item.onData(READY_IDLE);
      item.resolve(READY_IDLE.length);
      return;
    }
    item.resolve(0);
  }

  private async release(item: Pending): Promise<void> {
    try {
      if (this.owner === item.handlerId) {
        this.copyIn = undefined; // gone in the middle of a COPY: PGlite never saw it
        if (this.midExchange) await this.engine.exec(SYNC, () => {});
        if (this.engine.inTransaction) await this.engine.exec(ROLLBACK, () => {});
        this.owner = undefined;
        this.midExchange = false;
        this.budgetMs = 0;
      }
      if (this.awaitingSync === item.handlerId) this.awaitingSync = undefined;
      this.closeWhenIdle.delete(item.handlerId);
    } catch {
      // PGlite is closing (server stop): nothing left to roll back. Never reject:
      // the socket server does not await the handlers' detach.
      this.owner = undefined;
      this.midExchange = false;
      this.budgetMs = 0;
    }
    item.resolve(0);
  }
}
