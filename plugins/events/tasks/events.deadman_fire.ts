// `events.deadman_fire`: a deadman trigger's timer (see triggers/deadman.ts).
import type { FastTaskHandler } from 'agent-platform/sdk';
import type { EventsContext } from '../services/context.ts';
import { runDeadmanTimer } from '../triggers/deadman.ts';
import type { DeadmanPayload } from '../triggers/timers.ts';

export const deadmanFireTask = (context: EventsContext): FastTaskHandler =>
  (payload: DeadmanPayload) => runDeadmanTimer(context, payload);
