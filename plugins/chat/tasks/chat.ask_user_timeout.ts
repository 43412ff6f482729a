// The keyed delayed job of a suspended ask_user (job key chat.ask_user:<turn>,
// run at suspension + askUserTimeoutSeconds, removed when answered): the
// agent gets a structured timed-out result and the turn goes on in the
// worker's process (readers follow it with GET /api/chat/{id}/stream).
import type { TurnsService } from '../services/turns.ts';

export function askUserTimeoutTask(turns: () => TurnsService) {
  return async (payload: { tenant_id: string; turn_id: string; tool_call_id: string }) => {
    await turns().timeOut(payload.tenant_id, payload.turn_id, payload.tool_call_id);
  };
}
