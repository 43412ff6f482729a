// `events.schedule_fire`: a scheduled trigger's timer (see scheduler.ts).
import type { FastTaskHandler } from 'agent-platform/sdk';
import type { EventsContext } from '../services/context.ts';
import { runScheduleTimer } from '../triggers/scheduler.ts';
import type { SchedulePayload } from '../triggers/timers.ts';

export const scheduleFireTask = (context: EventsContext): FastTaskHandler =>
  (payload: SchedulePayload) => runScheduleTimer(context, payload);
