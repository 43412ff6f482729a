// The events this plugin emits through core.events.emit, always inside the
// transaction of the change they announce.
//   chat.session.created  {session_id, client_id, agent_name}            source /chat
//   chat.session.ended    {session_id, client_id, reason: 'deleted' | 'idle_timeout'}
//   chat.feedback.given  {session_id, message_id, client_id, rating, created, has_comment}
//   chat.tool.called      {session_id, turn_id, tool_call_id, name}
//   chat.tool.completed   {session_id, turn_id, tool_call_id, name, duration_ms, outcome?}
//   chat.tool.failed      {session_id, turn_id, tool_call_id, name, error, duration_ms}
//   agent.loop.started    {session_id, turn_id, agent_name, resumed}     source /agents
//   agent.loop.iteration  {session_id, turn_id, agent_name, iteration, tool_calls, tokens_used}
//   agent.loop.completed  {session_id, turn_id, agent_name, status, iterations, tokens_used, message_id}
//   agent.loop.failed     {session_id, turn_id, agent_name, reason, error, iterations, tokens_used, message_id}
//   definition.created|updated|deleted {definition_type: 'agent', name, version, changed_fields?}
import type { CoreServices, TenantTransaction } from 'agent-platform/sdk';

export const CHAT_SOURCE = '/chat';
export const AGENTS_SOURCE = '/agents';

export type Emit = (trx: TenantTransaction, tenantId: string, type: string, data: Record<string, unknown>) => Promise<void>;

export function emitterOf(core: Pick<CoreServices, 'events'>): Emit {
  return async (trx, tenantId, type, data) => {
    const source = type.startsWith('chat.') ? CHAT_SOURCE : AGENTS_SOURCE;
    await core.events.emit(trx, tenantId, { type, source, data });
  };
}
