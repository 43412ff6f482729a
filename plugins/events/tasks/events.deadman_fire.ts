// `events.deadman_fire`: a deadman trigger's timer (see deadman.ts).
import type { FastTaskHandler } from 'agent-platform/sdk';
import type { EventsContext } from '../context.ts';
import { runDeadmanTimer } from '../deadman.ts';
import type { DeadmanPayload } from '../timers.ts';

export const deadmanFireTask = (context: EventsContext): FastTaskHandler =>
  (payload: DeadmanPayload) => runDeadmanTimer(context, payload);
