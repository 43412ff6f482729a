// Transform schedule routes: one schedule per
// transform, and the tenant's list. Members read; editors change and trigger.
import type { ServerRoute } from '@hapi/hapi';
import { principalOf, tenantOf } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import * as s from '../schemas.ts';
import * as r from './runs.schemas.ts';
import * as c from './schedules.schemas.ts';
import type { ScheduleInput, ScheduleService } from '../services/schedules.ts';

const tags = ['api', 'transform-schedules'];
const idOf = (params: unknown) => (params as { transform_id: string }).transform_id;

export function scheduleRoutes(schedules: ScheduleService): ServerRoute[] {
  const base = '/api/v1/transforms/{transform_id}/schedule';
  const action = (verb: 'pause' | 'resume', description: string): ServerRoute => ({
    method: 'POST', path: `${base}/${verb}`,
    options: { auth: 'bearer', tags, description, plugins: { platform: editor }, validate: { params: s.transformParams }, response: { schema: c.schedule } },
    handler: (request) => schedules[verb](tenantOf(request), idOf(request.params)),
  });
  return [
    {
      method: 'GET', path: '/api/v1/transform-schedules',
      options: { auth: 'bearer', tags, description: 'The tenant\'s transform schedules', plugins: { platform: member }, validate: { query: s.pageQuery }, response: { schema: c.scheduleList } },
      handler: (request) => schedules.list(tenantOf(request), request.query as never),
    },
    {
      method: 'GET', path: base,
      options: { auth: 'bearer', tags, description: 'The transform\'s schedule: cron, zone, policy, next and last run', plugins: { platform: member }, validate: { params: s.transformParams }, response: { schema: c.schedule } },
      handler: (request) => schedules.get(tenantOf(request), idOf(request.params)),
    },
    {
      method: 'PUT', path: base,
      options: { auth: 'bearer', tags, description: 'Create or replace the transform\'s schedule (cron in an IANA zone, missed-run policy)', plugins: { platform: editor }, validate: { params: s.transformParams, payload: c.schedulePut }, response: { schema: c.schedule } },
      handler: (request) => schedules.put(tenantOf(request), idOf(request.params), request.payload as ScheduleInput),
    },
    {
      method: 'DELETE', path: base,
      options: { auth: 'bearer', tags, description: 'Delete the transform\'s schedule', plugins: { platform: editor }, validate: { params: s.transformParams } },
      handler: async (request, h) => {
        await schedules.remove(tenantOf(request), idOf(request.params));
        return h.response().code(204);
      },
    },
    action('pause', 'Pause the schedule (no timer until resumed)'),
    action('resume', 'Resume the schedule from now (occurrences missed while paused are not caught up)'),
    {
      method: 'POST', path: `${base}/trigger`,
      options: { auth: 'bearer', tags, description: 'Run the transform now as the schedule would (202 with the queued run)', plugins: { platform: editor }, validate: { params: s.transformParams }, response: { schema: r.transformRun } },
      handler: async (request, h) => h.response(await schedules.trigger(tenantOf(request), idOf(request.params), principalOf(request).sub)).code(202),
    },
  ];
}
