// What starting turns reads and writes, for every start of a tenant queued in
// this process at once (turn/start-batch.ts): one read (the sessions, their
// unfinished turns, agents and recent history), the tenant's chat_tenant_state
// row lock and the count of its running turns, one write (the questions, the
// turns, the sessions' activity). The lock is held until the commit and every
// start of the tenant in every process waits for it, so it is taken once per
// batch, after the read.
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

export const turnStartStore = {
  /**
   * The sessions (not deleted) among `sessionIds`, each with its unfinished
   * turn, its own agent, its client's default agent and its last
   * `historyLimit` messages, in one statement.
   */
  readMany: async (trx: TenantTransaction, sessionIds: string[], historyLimit: number): Promise<Map<string, TurnStartRead>> => {
    const { rows } = await sql<TurnStartRead>`
      SELECT s.id, s.client_id::int AS client_id, s.owner_key, s.agent_name,
        (SELECT json_build_object('id', t.id, 'status', t.status) FROM chat_turns t
          WHERE t.session_id = s.id AND t.status IN ('running', 'suspended', 'cancelling') LIMIT 1) AS active,
        (SELECT ${AGENT_JSON} FROM chat_agents a WHERE a.name = s.agent_name) AS own_agent,
        (SELECT ${AGENT_JSON} FROM chat_client_agents c JOIN chat_agents a ON a.tenant_id = c.tenant_id AND a.name = c.agent_name
          WHERE c.client_id = s.client_id) AS client_agent,
        (SELECT coalesce(json_agg(h ORDER BY h.id), '[]'::json) FROM
          (SELECT m.id, m.role, m.content FROM chat_messages m WHERE m.session_id = s.id ORDER BY m.id DESC LIMIT ${historyLimit}) h) AS history
      FROM chat_sessions s WHERE s.id = ANY(${sessionIds}::uuid[]) AND s.deleted_at IS NULL`.execute(trx);
    return new Map(rows.map((row) => [row.id, row]));
  },

  /**
   * Locks the tenant's chat_tenant_state row (every start takes it) and then counts
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
   * Inserts the questions and their turns (running, on `runnerId`) and marks
   * their sessions active, in one statement. A turn whose session got an
   * unfinished turn meanwhile (another process, same session) is not inserted
   * (the unique index on unfinished turns; ON CONFLICT DO NOTHING), and its
   * question is removed again: it is reported with `started: false`. Call
   * after lockAndCountRunning, with no more starts than the limit leaves.
   */
  writeMany: async (trx: TenantTransaction, tenantId: string, runnerId: string, starts: TurnStartValues[]): Promise<Map<string, number | null>> => {
    const { rows } = await sql<{ turn_id: string; message_id: number; started: boolean }>`
      WITH input AS (
        SELECT * FROM json_to_recordset(${JSON.stringify(starts)}::json)
          AS i(session_id uuid, turn_id uuid, phase text, content text, title text, state jsonb)
      ), msg AS (
        INSERT INTO chat_messages (tenant_id, session_id, turn_id, role, content, tool_metadata)
        SELECT ${tenantId}, i.session_id, i.turn_id, 'user', i.content, '{}' FROM input i
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
