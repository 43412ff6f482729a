// Following a turn's frames (GET /api/chat/{id}/stream, and a resume after a
// dropped connection): replays the frames after `after`, then follows the
// turn until it ends or suspends: from this process's channel when it runs
// here, else from Postgres by polling.
import type { Subscriber } from './channel.ts';
import { sseOfJson } from './frames.ts';
import type { Runtime } from './runtime.ts';
import { ENDED, framesStore, turnsStore } from '../store/turns.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Follows turn `turnId` of the tenant into `out`; returns a function that stops following. */
export function followTurn(rt: Runtime, tenantId: string, turnId: string, after: number, out: Subscriber): () => void {
  let stopped = false;
  let detach: (() => void) | undefined;
  const attachLocal = (seen: number) => {
    const local = rt.runs.get(turnId);
    const unsubscribe = local?.channel.subscribe(seen, out);
    if (unsubscribe) detach = unsubscribe;
    return Boolean(unsubscribe);
  };
  const loop = async () => {
    let seen = after;
    while (!stopped) {
      if (attachLocal(seen)) return;
      const [rows, status] = await rt.core.withTenant(tenantId, async (trx) =>
        [await framesStore.after(trx, turnId, seen), await turnsStore.status(trx, turnId)] as const);
      const write = (frame: { seq: number }, json: string) => {
        if (frame.seq !== seen + 1) return false; // a gap: read again
        out.write(sseOfJson(frame.seq, json));
        seen = frame.seq;
        return true;
      };
      for (const row of rows) {
        for (const frame of JSON.parse(row.frames) as { seq: number }[]) {
          if (frame.seq > seen && !write(frame, JSON.stringify(frame))) break;
        }
      }
      // Frames this process published but has not flushed yet: what lies between Postgres and live.
      const queued = rt.runs.get(turnId) ? rt.writer.pending(turnId) : undefined;
      if (queued) {
        for (let i = Math.max(0, seen + 1 - queued.first); i < queued.items.length; i++) {
          if (!write({ seq: queued.first + i }, queued.items[i])) break;
        }
      }
      if (attachLocal(seen)) return;
      if (!status || ((ENDED.includes(status.status) || status.status === 'suspended') && seen >= status.last_seq)) {
        out.end();
        return;
      }
      await sleep(rt.options.followPollMs);
    }
  };
  void loop().catch((err) => {
    rt.core.logger.warn({ err, turnId }, 'chat: following a turn failed');
    out.end();
  });
  return () => {
    stopped = true;
    detach?.();
  };
}
