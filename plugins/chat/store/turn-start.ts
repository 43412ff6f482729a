// What starting turns reads and writes, for every start of a tenant queued in
// this process at once (turn/start-batch.ts), in two statements. The read
// takes the tenant's chat_tenant_state row lock (held until the commit: every
// start of the tenant in every process waits for it) and reads the clients the
// starts name and every session (its unfinished turn, agents and recent
// history). The write counts the tenant's running turns (its snapshot is
// taken after the lock, so it sees every start that held the lock before)
// and writes as many questions, turns and session activities as the limit
// leaves.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import type { TurnPhase, TurnStatus } from './tables.ts';
import type { AgentValues } from './agents.ts';

type AgentRow = Omit<AgentValues, 'description'>;

/** One question to start: its turn id is chosen by the caller. */
export interface TurnStartValues {
  session_id: string;
  turn_id: string;
  phase: TurnPhase;
  content: string;
  title: string;
  state: unknown;
}

export interface TurnStartRead {
  id: string;
  client_id: number;
  owner_key: string;
  agent_name: string | null;
  active: { id: string; status: TurnStatus } | null;
  own_agent: AgentRow | null;
  client_agent: AgentRow | null;
  history: { id: number; role: 'user' | 'assistant'; content: string }[];
}

const AGENT_JSON = sql`json_build_object('name', a.name, 'instructions', a.instructions, 'model', a.model, 'functions', a.functions,
  'max_iterations', a.max_iterations, 'token_budget', a.token_budget, 'emit_iteration_events', a.emit_iteration_events)`;

export type ClientRow = { id: number; client_key: string; name: string };

export interface TurnStartReads {
  sessions: Map<string, TurnStartRead>;
  /** The tenant's default client (its oldest). */
  oldest: ClientRow | undefined;
  /** The clients named by id or key. */
  named: ClientRow[];
}

export const turnStartStore = {
  /**
   * Locks the tenant's chat_tenant_state row (an upsert) and reads the
   * tenant's default client, the clients named by `clientIds` and
   * `clientKeys`, and the sessions (not deleted) among `sessionIds`, each with
   * its unfinished turn, its own agent, its client's default agent and its last
   * `historyLimit` messages.
   */
  lockAndRead: async (trx: TenantTransaction, tenantId: string, read: {
    sessionIds: string[]; historyLimit: number; clientIds: number[]; clientKeys: string[];
  }): Promise<TurnStartReads> => {
    const { rows } = await sql<{ oldest: ClientRow | null; named: ClientRow[]; sessions: TurnStartRead[] }>`
      WITH gate AS (
        INSERT INTO chat_tenant_state AS g (tenant_id) VALUES (${tenantId}) ON CONFLICT (tenant_id) DO UPDATE SET touched_at = now()
        RETURNING 1
      )
      SELECT
        (SELECT row_to_json(c) FROM (SELECT id::int AS id, client_key, name FROM clients ORDER BY id LIMIT 1) c) AS oldest,
        (SELECT coalesce(json_agg(c), '[]'::json) FROM (SELECT id::int AS id, client_key, name FROM clients
          WHERE id = ANY(${read.clientIds}::bigint[]) OR client_key = ANY(${read.clientKeys}::text[])) c) AS named,
        (SELECT coalesce(json_agg(x), '[]'::json) FROM (
          SELECT s.id, s.client_id::int AS client_id, s.owner_key, s.agent_name,
            (SELECT json_build_object('id', t.id, 'status', t.status) FROM chat_turns t
              WHERE t.session_id = s.id AND t.status IN ('running', 'suspended', 'cancelling') LIMIT 1) AS active,
            (SELECT ${AGENT_JSON} FROM chat_agents a WHERE a.name = s.agent_name) AS own_agent,
            (SELECT ${AGENT_JSON} FROM chat_client_agents c JOIN chat_agents a ON a.tenant_id = c.tenant_id AND a.name = c.agent_name
              WHERE c.client_id = s.client_id) AS client_agent,
            (SELECT coalesce(json_agg(h ORDER BY h.id), '[]'::json) FROM
              (SELECT m.id, m.role, m.content FROM chat_messages m WHERE m.session_id = s.id ORDER BY m.id DESC LIMIT ${read.historyLimit}) h) AS history
          FROM chat_sessions s WHERE s.id = ANY(${read.sessionIds}::uuid[]) AND s.deleted_at IS NULL) x) AS sessions
      FROM gate`.execute(trx);
    const row = rows[0];
    return { sessions: new Map(row.sessions.map((session) => [session.id, session])), oldest: row.oldest ?? undefined, named: row.named };
  },

  /**
   * Locks the tenant's chat_tenant_state row (as lockAndRead does) and then counts
   * its running turns in a statement of its own, so the count sees every
   * start that held the lock before: for an answer that resumes a suspended turn.
   */
  lockAndCountRunning: async (trx: TenantTransaction, tenantId: string): Promise<number> => {
    await sql`INSERT INTO chat_tenant_state (tenant_id) VALUES (${tenantId}) ON CONFLICT (tenant_id) DO UPDATE SET touched_at = now()`.execute(trx);
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM chat_turns WHERE tenant_id = ${tenantId} AND status IN ('running', 'cancelling')`.execute(trx);
    return Number(rows[0].n);
  },

  /**
   * Counts the tenant's running turns and inserts as many of the questions
   * and their turns (running, on `runnerId`) as `maxRunning` leaves, in
   * order, marking their sessions active, in one statement. Call after
   * lockAndRead, in its transaction. A turn whose session got an unfinished
   * turn meanwhile (another process) is not inserted (the unique index on
   * unfinished turns; ON CONFLICT DO NOTHING) and its question is removed
   * again. Returns, by turn id, the question's id (started), null (the
   * session was busy), or nothing (past the limit).
   */
  countAndWrite: async (trx: TenantTransaction, tenantId: string, runnerId: string, maxRunning: number, starts: TurnStartValues[]): Promise<Map<string, number | null>> => {
    const { rows } = await sql<{ turn_id: string; message_id: number; started: boolean }>`
      WITH running AS (
        SELECT count(*)::int AS n FROM chat_turns WHERE tenant_id = ${tenantId} AND status IN ('running', 'cancelling')
      ), input AS (
        SELECT i.* FROM json_to_recordset(${JSON.stringify(starts.map((start, ord) => ({ ...start, ord })))}::json)
          AS i(ord int, session_id uuid, turn_id uuid, phase text, content text, title text, state jsonb), running
        WHERE i.ord < ${maxRunning} - running.n
      ), msg AS (
        INSERT INTO chat_messages (tenant_id, session_id, turn_id, role, content, tool_metadata)
        SELECT ${tenantId}, i.session_id, i.turn_id, 'user', i.content, '{}' FROM input i ORDER BY i.ord
        RETURNING id, turn_id
      ), turn AS (
        INSERT INTO chat_turns (id, tenant_id, session_id, status, phase, runner_id, user_message_id, state)
        SELECT i.turn_id, ${tenantId}, i.session_id, 'running', i.phase, ${runnerId}::uuid, msg.id, i.state
        FROM input i JOIN msg ON msg.turn_id = i.turn_id
        ON CONFLICT DO NOTHING
        RETURNING id, session_id
      ), touched AS (
        UPDATE chat_sessions s SET last_active = now(), is_active = true, title = CASE WHEN s.title = '' THEN i.title ELSE s.title END
        FROM turn JOIN input i ON i.turn_id = turn.id WHERE s.id = turn.session_id
        RETURNING s.id
      )
      SELECT msg.turn_id, msg.id AS message_id, turn.id IS NOT NULL AS started FROM msg LEFT JOIN turn ON turn.id = msg.turn_id`.execute(trx);
    const orphans = rows.filter((row) => !row.started).map((row) => Number(row.message_id));
    if (orphans.length > 0) await sql`DELETE FROM chat_messages WHERE id = ANY(${orphans}::bigint[])`.execute(trx);
    return new Map(rows.map((row) => [row.turn_id, row.started ? Number(row.message_id) : null]));
  },
};
