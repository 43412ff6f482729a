// Sessions end when nobody has used them for sessionIdleTimeoutSeconds (run
// by the sweep, per tenant): is_active false and one chat.session.ended
// {reason: idle_timeout} per ending, in the transaction that ends them. An
// ended session stays listed and readable; a new question reopens it
// (store/turn-start.ts), and it can end again later.
import type { TenantTransaction } from 'agent-platform/sdk';
import type { Emit } from '../events/emitter.ts';
import { sessionsStore } from '../store/sessions.ts';

export async function endIdleSessions(trx: TenantTransaction, tenantId: string, idleSeconds: number, now: Date, emit: Emit): Promise<number> {
  if (idleSeconds === 0) return 0;
  const ended = await sessionsStore.endIdle(trx, new Date(now.getTime() - idleSeconds * 1000));
  for (const session of ended) {
    await emit(trx, tenantId, 'chat.session.ended', { session_id: session.id, client_id: Number(session.client_id), reason: 'idle_timeout' });
  }
  return ended.length;
}
