// Scheduled housekeeping: turns whose runner process died (no heartbeat for
// runnerStaleSeconds) are ended as interrupted, so their session takes new
// questions again and readers stop following; frames of turns that ended
// long ago are deleted (messages stay); sessions idle too long end
// (sessions/idle.ts). Tenant rows need each tenant's context.
import type { CoreServices } from 'agent-platform/sdk';
import type { ChatOptions } from '../options.ts';
import type { Emit } from '../events.ts';
import { endIdleSessions } from '../sessions/idle.ts';
import { messagesStore } from '../store/sessions.ts';
import { framesStore, runnersStore, turnsStore } from '../store/turns.ts';
import { batchOfPrepared } from '../turn/runtime.ts';
import { encodeFrame, type Frame } from '../turn/frames.ts';
import type { TurnState } from '../turn/state.ts';

export const SWEEP_TASK = 'chat.sweep';
export const SWEEP_CRON = '* * * * *';

export function sweepHandler(core: Pick<CoreServices, 'db' | 'tenants' | 'withTenant' | 'logger' | 'clock'>, options: ChatOptions, emit: Emit) {
  return async () => {
    let orphans = 0;
    let frames = 0;
    let idle = 0;
    await core.tenants.each(async (tenantId) => {
      await core.withTenant(tenantId, async (trx) => {
        for (const turn of await turnsStore.orphaned(trx, options.runnerStaleSeconds)) {
          const locked = await turnsStore.getForUpdate(trx, turn.id);
          if (!locked || (locked.status !== 'running' && locked.status !== 'cancelling')) continue;
          const state = locked.state as TurnState;
          const lastSeq = await framesStore.lastSeq(trx, turn.id);
          const message = await messagesStore.insert(trx, {
            tenant_id: tenantId, session_id: turn.session_id, turn_id: turn.id, role: 'assistant', content: state.text ?? '',
            tool_metadata: { interrupted: true, error: { code: 'INTERRUPTED', message: 'The server answering this question stopped' } },
          });
          const list: Frame[] = [
            { type: 'error', code: 'INTERRUPTED', message: 'The server answering this question stopped' },
            { type: 'message', message_id: message.id, interrupted: true },
            { type: 'done', status: 'failed' },
          ];
          const prepared = list.map((frame, i) => ({ seq: lastSeq + 1 + i, ...encodeFrame(lastSeq + 1 + i, frame) }));
          await framesStore.insertBatches(trx, batchOfPrepared(tenantId, turn.id, prepared));
          await turnsStore.finish(trx, turn.id, { status: 'failed', assistant_message_id: message.id, last_seq: prepared.at(-1)!.seq, error: 'runner stopped' });
          await emit(trx, tenantId, 'agent.loop.failed', {
            session_id: turn.session_id, turn_id: turn.id, agent_name: state.agent?.name ?? null, reason: 'interrupted',
            error: 'The server answering this question stopped', iterations: state.iterations ?? 0, tokens_used: state.tokens_used ?? 0, message_id: message.id,
          });
          orphans++;
        }
        frames += await framesStore.prune(trx, new Date(core.clock.now().getTime() - options.frameRetentionHours * 3_600_000));
        idle += await endIdleSessions(trx, tenantId, options.sessionIdleTimeoutSeconds, core.clock.now(), emit);
      });
    });
    await runnersStore.prune(core.db, Math.max(options.runnerStaleSeconds * 10, 3600));
    core.logger.debug({ orphans, frames, idle }, 'chat: sweep');
    return { orphans, frames, idle };
  };
}
