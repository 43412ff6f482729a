// Scheduled housekeeping: turns whose runner process died (no heartbeat for
// runnerStaleSeconds) are ended as interrupted, so their session takes new
// questions again and readers stop following; frames of turns that ended
// long ago are deleted (messages stay); sessions idle too long end
// (sessions/idle.ts); open-stream rows of dead runners are deleted. Tenant
// rows need each tenant's context.
import type { CoreServices } from 'agent-platform/sdk';
import type { ChatOptions } from '../options.ts';
import type { Emit } from '../events/emitter.ts';
import { endIdleSessions } from '../sessions/idle.ts';
import { framesStore, runnersStore, turnsStore } from '../store/turns.ts';
import { numberedAfter, writeTurnEnd } from '../turn/ending.ts';
import type { TurnState } from '../turn/state.ts';
import { streamsStore } from '../store/streams.ts';

export const SWEEP_TASK = 'chat.sweep';
export const SWEEP_CRON = '* * * * *';

const RUNNER_STOPPED = { code: 'INTERRUPTED', reason: 'interrupted', message: 'The server answering this question stopped' };

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
          const lastSeq = await framesStore.lastSeq(trx, turn.id);
          await writeTurnEnd(trx, emit, { tenantId, sessionId: turn.session_id, turnId: turn.id, state: locked.state as TurnState },
            { status: 'failed', interrupted: true, error: RUNNER_STOPPED }, numberedAfter(lastSeq));
          orphans++;
        }
        frames += await framesStore.prune(trx, new Date(core.clock.now().getTime() - options.frameRetentionHours * 3_600_000));
        idle += await endIdleSessions(trx, tenantId, options.sessionIdleTimeoutSeconds, core.clock.now(), emit);
        await streamsStore.pruneDead(trx, options.runnerStaleSeconds);
      });
    });
    await runnersStore.prune(core.db, Math.max(options.runnerStaleSeconds * 10, 3600));
    core.logger.debug({ orphans, frames, idle }, 'chat: sweep');
    return { orphans, frames, idle };
  };
}
