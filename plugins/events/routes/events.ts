// The events REST routes (core-platform 4.4): joi in, response schema out, a
// call to a service. The literal /api/admin/triggers/events/... routes are
// not shadowed by /api/admin/triggers/{name}: hapi prefers literal segments,
// and "events" is a reserved trigger name.
import type { ServerRoute } from '@hapi/hapi';
import { actorOf, type EventInput, principalOf, tenantOf } from 'agent-platform/sdk';
import type { StreamService } from '../services/stream.ts';
import type { TriggerService } from '../services/triggers.ts';
import type { CustomTypeValues } from '../store/custom-types.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'events'];
const BASE = '/api/admin/triggers';

type Paging = { skip: number; limit: number };

export function eventsRoutes(stream: StreamService, triggers: TriggerService): ServerRoute[] {
  return [
    {
      method: 'POST', path: BASE,
      options: {
        auth: 'bearer', tags, description: 'Create a trigger (reactive, scheduled or deadman)',
        plugins: { platform: admin }, validate: { payload: s.createTrigger }, response: { schema: s.trigger },
      },
      handler: async (request, h) => h.response(await triggers.create(tenantOf(request), request.payload, actorOf(principalOf(request)))).code(201),
    },
    {
      method: 'GET', path: BASE,
      options: {
        auth: 'bearer', tags, description: 'List triggers; event_type also finds patterns that match it',
        plugins: { platform: admin }, validate: { query: s.triggerQuery }, response: { schema: s.listOf(s.trigger, 'TriggerList') },
      },
      handler: (request) => {
        const q = request.query as Paging & { active_only: boolean; event_type?: string };
        return triggers.list(tenantOf(request), { activeOnly: q.active_only, eventType: q.event_type }, q.skip, q.limit);
      },
    },
    {
      method: 'GET', path: `${BASE}/{name}`,
      options: {
        auth: 'bearer', tags, description: 'Read a trigger',
        plugins: { platform: admin }, validate: { params: s.triggerName }, response: { schema: s.trigger },
      },
      handler: (request) => triggers.get(tenantOf(request), (request.params as { name: string }).name),
    },
    {
      method: 'PUT', path: `${BASE}/{name}`,
      options: {
        auth: 'bearer', tags, description: 'Update a trigger: the fields given replace the stored ones (null clears)',
        plugins: { platform: admin }, validate: { params: s.triggerName, payload: s.updateTrigger }, response: { schema: s.trigger },
      },
      handler: (request) => triggers.update(tenantOf(request), (request.params as { name: string }).name, request.payload, actorOf(principalOf(request))),
    },
    {
      method: 'DELETE', path: `${BASE}/{name}`,
      options: {
        auth: 'bearer', tags, description: 'Delete a trigger, its timers and its dispatch history',
        plugins: { platform: admin }, validate: { params: s.triggerName },
      },
      handler: async (request, h) => {
        await triggers.delete(tenantOf(request), (request.params as { name: string }).name);
        return h.response().code(204);
      },
    },
    {
      method: 'POST', path: `${BASE}/{name}/test`,
      options: {
        auth: 'bearer', tags, description: 'Dry run: would this event match, why, and with what inputs (starts nothing)',
        plugins: { platform: admin }, validate: { params: s.triggerName, payload: s.testRequest }, response: { schema: s.testResult },
      },
      handler: (request) =>
        triggers.test(tenantOf(request), (request.params as { name: string }).name, (request.payload as { event: never }).event),
    },
    {
      method: 'POST', path: `${BASE}/{name}/backfill`,
      options: {
        auth: 'bearer', tags, description: 'Replay dispatched events through a reactive trigger (idempotent only with a dedup key)',
        plugins: { platform: admin }, validate: { params: s.triggerName, payload: s.backfillRequest }, response: { schema: s.backfillResult },
      },
      handler: (request) =>
        triggers.backfill(tenantOf(request), (request.params as { name: string }).name, (request.payload ?? { limit: 100 }) as { since?: Date; limit: number }),
    },
    {
      method: 'POST', path: `${BASE}/events/emit`,
      options: {
        auth: 'bearer', tags, description: 'Emit a real event on the tenant\'s stream',
        plugins: { platform: admin }, validate: { payload: s.emitRequest }, response: { schema: s.emitResult },
      },
      handler: async (request, h) => {
        const input = request.payload as EventInput & { time?: Date };
        const emitted = await stream.emit(tenantOf(request), { ...input, time: input.time?.toISOString() });
        return h.response(emitted).code(201);
      },
    },
    {
      method: 'GET', path: `${BASE}/events/types`,
      options: {
        auth: 'bearer', tags, description: 'The built-in event types with what emits them (and the tenant\'s custom types with include_custom)',
        plugins: { platform: admin }, validate: { query: s.typesQuery }, response: { schema: s.listOf(s.eventType, 'EventTypeList') },
      },
      handler: (request) => stream.types(tenantOf(request), (request.query as { include_custom: boolean }).include_custom),
    },
    {
      method: 'GET', path: `${BASE}/events/recent`,
      options: {
        auth: 'bearer', tags, description: 'The newest events of the tenant\'s stream, newest first',
        plugins: { platform: admin }, validate: { query: s.recentQuery }, response: { schema: s.listOf(s.streamEvent, 'StreamEventList') },
      },
      handler: (request) => {
        const q = request.query as { limit: number; type?: string };
        return stream.recent(tenantOf(request), q.limit, q.type);
      },
    },
    {
      method: 'POST', path: `${BASE}/events/types/custom`,
      options: {
        auth: 'bearer', tags, description: 'Create a custom event type (its schema only ever warns on emission)',
        plugins: { platform: admin }, validate: { payload: s.createCustomType }, response: { schema: s.customType },
      },
      handler: async (request, h) =>
        h.response(await stream.createCustomType(tenantOf(request), request.payload as CustomTypeValues & { type: string })).code(201),
    },
    {
      method: 'GET', path: `${BASE}/events/types/custom`,
      options: {
        auth: 'bearer', tags, description: 'List the tenant\'s custom event types',
        plugins: { platform: admin }, validate: { query: s.paging }, response: { schema: s.listOf(s.customType, 'CustomEventTypeList') },
      },
      handler: async (request) => {
        const { skip, limit } = request.query as Paging;
        return { ...(await stream.listCustomTypes(tenantOf(request), skip, limit)), skip, limit };
      },
    },
    {
      method: 'PUT', path: `${BASE}/events/types/custom/{type}`,
      options: {
        auth: 'bearer', tags, description: 'Replace a custom event type\'s description, sample payload and schema',
        plugins: { platform: admin }, validate: { params: s.customTypeParam, payload: s.updateCustomType }, response: { schema: s.customType },
      },
      handler: (request) =>
        stream.updateCustomType(tenantOf(request), (request.params as { type: string }).type, request.payload as CustomTypeValues),
    },
    {
      method: 'DELETE', path: `${BASE}/events/types/custom/{type}`,
      options: {
        auth: 'bearer', tags, description: 'Delete a custom event type',
        plugins: { platform: admin }, validate: { params: s.customTypeParam },
      },
      handler: async (request, h) => {
        await stream.deleteCustomType(tenantOf(request), (request.params as { type: string }).type);
        return h.response().code(204);
      },
    },
  ];
}
