// `events.dispatch`: drains a tenant's stream (see dispatch/dispatcher.ts).
import type { FastTaskHandler } from 'agent-platform/sdk';
import type { EventsContext } from '../services/context.ts';
import { drain } from '../dispatch/dispatcher.ts';
import type { DispatchPayload } from '../dispatch/jobs.ts';

export const dispatchTask = (context: EventsContext): FastTaskHandler =>
  (payload: DispatchPayload, job) => drain(context, payload.tenant_id, job, payload.waited_ms ?? 0);
