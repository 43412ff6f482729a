// The two statements that start a turn (besides resolving the client): one
// read (the session, its unfinished turn, its agent and recent history) and
// one write (the question, the turn, the session's activity: a session that
// ended for idleness is active again). A question's
// time to first token is mostly round trips to Postgres while hundreds of
// turns start at once, so they are kept to these two.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import type { TurnPhase, TurnStatus } from './tables.ts';
import type { AgentValues } from './agents.ts';

type AgentRow = Omit<AgentValues, 'description'>;

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
   * Also locks the tenant's chat_tenant_state row (an upsert) until the
   * transaction ends: the write that follows counts the tenant's running turns
   * with a snapshot taken after the lock, so concurrent starts in any process
   * count one after the other and never overshoot the limit.
   */
  read: async (trx: TenantTransaction, tenantId: string, sessionId: string, historyLimit: number): Promise<TurnStartRead | undefined> =>
    (await sql<TurnStartRead>`
      WITH gate AS (
        INSERT INTO chat_tenant_state AS g (tenant_id) VALUES (${tenantId}) ON CONFLICT (tenant_id) DO UPDATE SET touched_at = now()
        RETURNING 1
      )
      SELECT s.id, s.client_id::int AS client_id, s.owner_key, s.agent_name,
        (SELECT json_build_object('id', t.id, 'status', t.status) FROM chat_turns t
          WHERE t.session_id = s.id AND t.status IN ('running', 'suspended', 'cancelling') LIMIT 1) AS active,
        (SELECT ${AGENT_JSON} FROM chat_agents a WHERE a.name = s.agent_name) AS own_agent,
        (SELECT ${AGENT_JSON} FROM chat_client_agents c JOIN chat_agents a ON a.tenant_id = c.tenant_id AND a.name = c.agent_name
          WHERE c.client_id = s.client_id) AS client_agent,
        (SELECT coalesce(json_agg(h ORDER BY h.id), '[]'::json) FROM
          (SELECT m.id, m.role, m.content FROM chat_messages m WHERE m.session_id = s.id ORDER BY m.id DESC LIMIT ${historyLimit}) h) AS history
      FROM chat_sessions s WHERE s.id = ${sessionId}::uuid AND s.deleted_at IS NULL`.execute(trx)).rows[0],

  /**
   * Locks the tenant's chat_tenant_state row (as `read` does) and then counts
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
   * Inserts the question and its turn and marks the session active, unless the
   * tenant already runs `maxRunning` turns (running or being cancelled; a
   * suspended one waits for a person and holds nothing): then nothing is
   * written. Returns the question's message id, or null when refused.
   */
  write: async (trx: TenantTransaction, values: {
    tenantId: string; sessionId: string; turnId: string; runnerId: string; phase: TurnPhase; content: string; title: string; state: unknown;
    maxRunning: number;
  }): Promise<number | null> => {
    const row = (await sql<{ id: number | null }>`
      WITH running AS (
        SELECT count(*) AS n FROM chat_turns WHERE tenant_id = ${values.tenantId} AND status IN ('running', 'cancelling')
      ), msg AS (
        INSERT INTO chat_messages (tenant_id, session_id, turn_id, role, content, tool_metadata)
        SELECT ${values.tenantId}, ${values.sessionId}::uuid, ${values.turnId}::uuid, 'user', ${values.content}, '{}'
        FROM running WHERE running.n < ${values.maxRunning}
        RETURNING id
      ), turn AS (
        INSERT INTO chat_turns (id, tenant_id, session_id, status, phase, runner_id, user_message_id, state)
        SELECT ${values.turnId}::uuid, ${values.tenantId}, ${values.sessionId}::uuid, 'running', ${values.phase}, ${values.runnerId}::uuid, msg.id,
          ${JSON.stringify(values.state)}::jsonb FROM msg
        RETURNING id
      ), touched AS (
        UPDATE chat_sessions SET last_active = now(), is_active = true, title = CASE WHEN title = '' THEN ${values.title} ELSE title END
        WHERE id = ${values.sessionId}::uuid AND EXISTS (SELECT 1 FROM msg) RETURNING id
      )
      SELECT (SELECT msg.id FROM msg, turn, touched) AS id`.execute(trx)).rows[0];
    return row.id === null ? null : Number(row.id);
  },
};
