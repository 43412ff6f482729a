// `events.schedule_fire`: a scheduled trigger's timer (see scheduler.ts).
import type { FastTaskHandler } from 'agent-platform/sdk';
import type { EventsContext } from '../context.ts';
import { runScheduleTimer } from '../scheduler.ts';
import type { SchedulePayload } from '../timers.ts';

export const scheduleFireTask = (context: EventsContext): FastTaskHandler =>
  (payload: SchedulePayload) => runScheduleTimer(context, payload);
