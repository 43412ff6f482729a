// `events.dispatch`: drains a tenant's stream (see dispatcher.ts).
import type { FastTaskHandler } from 'agent-platform/sdk';
import type { EventsContext } from '../context.ts';
import { drain } from '../dispatcher.ts';

export const dispatchTask = (context: EventsContext): FastTaskHandler =>
  (payload: { tenant_id: string }, job) => drain(context, payload.tenant_id, job);
