// `events.dispatch`: drains a tenant's stream (see dispatch/dispatcher.ts).
import type { FastTaskHandler } from 'agent-platform/sdk';
import type { EventsContext } from '../services/context.ts';
import { drain } from '../dispatch/dispatcher.ts';

export const dispatchTask = (context: EventsContext): FastTaskHandler =>
  (payload: { tenant_id: string }, job) => drain(context, payload.tenant_id, job);
