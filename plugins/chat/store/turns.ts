// kysely queries for turns, their persisted frames and the runner heartbeat.
import { sql, type Kysely } from 'kysely';
import type { Database, TenantTransaction } from 'agent-platform/sdk';
import type { CancelOutcome, TurnPhase, TurnStatus } from './tables.ts';
import './tables.ts';

export const ACTIVE: TurnStatus[] = ['running', 'suspended', 'cancelling'];
export const ENDED: TurnStatus[] = ['completed', 'stopped', 'cancelled', 'failed'];

const turnColumns = [
  'id', 'tenant_id', 'session_id', 'status', 'phase', 'cancel_outcome', 'runner_id', 'user_message_id',
  'assistant_message_id', 'pending_tool_call_id', 'state', 'last_seq', 'error', 'created_at', 'updated_at', 'finished_at',
] as const;

export const turnsStore = {
  get: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('chat_turns').select([...turnColumns]).where('id', '=', id).executeTakeFirst(),

  // The turn locks are FOR NO KEY UPDATE: they still serialize every change of
  // a turn, but not against the key-share lock a frame insert's foreign key
  // takes. With FOR UPDATE, a sweep ending a turn (row locked, then frames)
  // and that turn's frame writer (frames, waiting on the row) deadlocked.
  getForUpdate: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('chat_turns').select([...turnColumns]).where('id', '=', id).forNoKeyUpdate().executeTakeFirst(),

  /** The session's unfinished turn, locked (cancel, human-input and a new question serialize on it). */
  activeForUpdate: (trx: TenantTransaction, sessionId: string) =>
    trx.selectFrom('chat_turns').select([...turnColumns])
      .where('session_id', '=', sessionId).where('status', 'in', ACTIVE)
      .forNoKeyUpdate().executeTakeFirst(),

  active: (trx: TenantTransaction, sessionId: string) =>
    trx.selectFrom('chat_turns').select([...turnColumns])
      .where('session_id', '=', sessionId).where('status', 'in', ACTIVE).executeTakeFirst(),

  latest: (trx: TenantTransaction, sessionId: string) =>
    trx.selectFrom('chat_turns').select([...turnColumns])
      .where('session_id', '=', sessionId).orderBy('created_at', 'desc').orderBy('id').limit(1).executeTakeFirst(),

  /**
   * The runner's handshake before each model request or tool: the phase moves
   * only while the turn is still running, so a cancel that landed first wins
   * and no further model call or tool starts. Returns false when cancelled.
   */
  enterPhase: async (trx: TenantTransaction, id: string, runnerId: string, phase: TurnPhase) =>
    (await trx.updateTable('chat_turns').set({ phase, updated_at: sql`now()` as never })
      .where('id', '=', id).where('status', '=', 'running').where('runner_id', '=', runnerId)
      .executeTakeFirst()).numUpdatedRows > 0n,

  requestCancel: (trx: TenantTransaction, id: string, outcome: CancelOutcome) =>
    trx.updateTable('chat_turns')
      .set({ status: 'cancelling', cancel_outcome: outcome, updated_at: sql`now()` as never })
      .where('id', '=', id).execute(),

  suspend: (trx: TenantTransaction, id: string, values: { state: unknown; pending_tool_call_id: string; last_seq: number }) =>
    trx.updateTable('chat_turns')
      .set({
        status: 'suspended', phase: 'idle', runner_id: null, state: JSON.stringify(values.state),
        pending_tool_call_id: values.pending_tool_call_id, last_seq: values.last_seq, updated_at: sql`now()` as never,
      })
      .where('id', '=', id).execute(),

  /** A suspended turn taken up again by a runner (answer or timeout). */
  resume: (trx: TenantTransaction, id: string, values: { state: unknown; runner_id: string }) =>
    trx.updateTable('chat_turns')
      .set({ status: 'running', phase: 'idle', runner_id: values.runner_id, state: JSON.stringify(values.state), pending_tool_call_id: null, updated_at: sql`now()` as never })
      .where('id', '=', id).execute(),

  finish: (trx: TenantTransaction, id: string, values: {
    status: TurnStatus; assistant_message_id: number | null; last_seq: number; error: string | null; state?: unknown;
  }) =>
    trx.updateTable('chat_turns')
      .set({
        status: values.status, phase: 'idle', assistant_message_id: values.assistant_message_id, last_seq: values.last_seq,
        error: values.error, pending_tool_call_id: null, runner_id: null,
        ...(values.state !== undefined ? { state: JSON.stringify(values.state) } : {}),
        updated_at: sql`now()` as never, finished_at: sql`now()` as never,
      })
      .where('id', '=', id).execute(),

  /**
   * Of these turns run by `runnerId`, the ones it must stop: a cancel reached
   * them, or they are no longer its own (ended by a sweep that took this
   * process for dead). The cross-process cancel poll.
   */
  cancelled: async (trx: TenantTransaction, ids: string[], runnerId: string) =>
    (await sql<{ id: string }>`SELECT id FROM chat_turns
      WHERE id = ANY(${ids}::uuid[]) AND (status IN ('cancelling', 'completed', 'stopped', 'cancelled', 'failed')
        OR (status = 'running' AND runner_id IS DISTINCT FROM ${runnerId}::uuid))`.execute(trx)).rows,

  status: async (trx: TenantTransaction, id: string) =>
    (await trx.selectFrom('chat_turns').select(['status', 'runner_id', 'last_seq']).where('id', '=', id).executeTakeFirst()),

  /** Unfinished turns whose runner is gone or silent for staleSeconds. */
  orphaned: (trx: TenantTransaction, staleSeconds: number) =>
    trx.selectFrom('chat_turns').select([...turnColumns])
      .where('status', 'in', ['running', 'cancelling'])
      .where((eb) => eb.or([
        eb('runner_id', 'is', null),
        eb.not(eb.exists(eb.selectFrom('chat_runners').select('chat_runners.id')
          .whereRef('chat_runners.id', '=', 'chat_turns.runner_id')
          .where('chat_runners.heartbeat_at', '>', sql<Date>`now() - make_interval(secs => ${staleSeconds})`))),
      ]))
      .execute(),
};

export const framesStore = {
  /**
   * One statement for any number of batches, with one parameter: a JSON array
   * assembled by concatenation (each batch's frames are already JSON, so they
   * are embedded as they are, not escaped again as array elements would be).
   * At hundreds of streams this keeps a flush from holding the event loop.
   * A batch already there (a retried flush, or a zombie runner's frames after
   * a sweep ended its turn) is skipped.
   */
  insertBatches: async (trx: TenantTransaction, rows: { tenant_id: string; turn_id: string; first_seq: number; last_seq: number; frames: string }[]) => {
    if (rows.length === 0) return;
    // A share lock on the turns first (in id order): a flush waits while a
    // sweep or an ending holds a turn (FOR NO KEY UPDATE), so the end's frames
    // are numbered after every frame already written and never lose their
    // seq to a zombie runner's late flush; an ending waits for a flush alike.
    const turnIds = [...new Set(rows.map((r) => r.turn_id))].sort();
    await sql`SELECT id FROM chat_turns WHERE id = ANY(${turnIds}::uuid[]) ORDER BY id FOR SHARE`.execute(trx);
    // Tenant ids are validated aliases and turn ids UUIDs: nothing to escape.
    const json = `[${rows.map((r) => `{"t":"${r.tenant_id}","u":"${r.turn_id}","f":${r.first_seq},"l":${r.last_seq},"x":${r.frames}}`).join(',')}]`;
    await sql`INSERT INTO chat_turn_frames (tenant_id, turn_id, first_seq, last_seq, frames)
      SELECT r.t, r.u::uuid, r.f, r.l, r.x::text FROM json_to_recordset(${json}::json) AS r(t text, u text, f int, l int, x json)
      ON CONFLICT DO NOTHING`.execute(trx);
  },

  after: (trx: TenantTransaction, turnId: string, afterSeq: number) =>
    trx.selectFrom('chat_turn_frames').select(['first_seq', 'last_seq', 'frames'])
      .where('turn_id', '=', turnId).where('last_seq', '>', afterSeq).orderBy('first_seq').execute(),

  lastSeq: async (trx: TenantTransaction, turnId: string) =>
    Number((await trx.selectFrom('chat_turn_frames').select((eb) => eb.fn.max('last_seq').as('n')).where('turn_id', '=', turnId).executeTakeFirst())?.n ?? 0),

  /** Frames of turns that ended before `before` (the messages stay). */
  prune: async (trx: TenantTransaction, before: Date) =>
    Number((await trx.deleteFrom('chat_turn_frames')
      .where('turn_id', 'in', (eb) => eb.selectFrom('chat_turns').select('id').where('finished_at', '<', before))
      .executeTakeFirst()).numDeletedRows),
};

export const runnersStore = {
  register: (db: Kysely<Database>, id: string) =>
    db.insertInto('chat_runners').values({ id }).onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: sql`now()` as never })).execute(),
  heartbeat: (db: Kysely<Database>, id: string) =>
    db.updateTable('chat_runners').set({ heartbeat_at: sql`now()` as never }).where('id', '=', id).execute(),
  remove: (db: Kysely<Database>, id: string) => db.deleteFrom('chat_runners').where('id', '=', id).execute(),
  /** Runners silent for much longer than the stale limit are forgotten. */
  prune: (db: Kysely<Database>, olderThanSeconds: number) =>
    db.deleteFrom('chat_runners').where('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`).execute(),
};
