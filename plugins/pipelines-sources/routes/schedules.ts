// The schedule routes: one schedule per source, and the
// tenant's list. Members read; editors change and trigger.
import type { ServerRoute } from '@hapi/hapi';
import { principalOf, tenantOf } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import * as s from '../schemas.ts';
import * as r from './runs.schemas.ts';
import * as c from './schedules.schemas.ts';
import type { ScheduleInput, ScheduleService } from '../services/schedules.ts';

const tags = ['api', 'schedules'];
const sourceIdOf = (params: unknown) => (params as { source_id: string }).source_id;

export function scheduleRoutes(schedules: ScheduleService): ServerRoute[] {
  const base = '/api/v1/sources/{source_id}/schedule';
  const action = (verb: 'pause' | 'resume', description: string): ServerRoute => ({
    method: 'POST', path: `${base}/${verb}`,
    options: { auth: 'bearer', tags, description, plugins: { platform: editor }, validate: { params: s.sourceParams }, response: { schema: c.schedule } },
    handler: (request) => schedules[verb](tenantOf(request), sourceIdOf(request.params)),
  });
  return [
    {
      method: 'GET', path: '/api/v1/schedules',
      options: {
        auth: 'bearer', tags, description: 'The tenant\'s source schedules',
        plugins: { platform: member }, validate: { query: s.pageQuery }, response: { schema: c.scheduleList },
      },
      handler: (request) => schedules.list(tenantOf(request), request.query as never),
    },
    {
      method: 'GET', path: base,
      options: {
        auth: 'bearer', tags, description: 'The source\'s schedule: cron, zone, policy, next and last run',
        plugins: { platform: member }, validate: { params: s.sourceParams }, response: { schema: c.schedule },
      },
      handler: (request) => schedules.get(tenantOf(request), sourceIdOf(request.params)),
    },
    {
      method: 'PUT', path: base,
      options: {
        auth: 'bearer', tags, description: 'Create or replace the source\'s schedule (cron in an IANA zone, missed-run policy)',
        plugins: { platform: editor }, validate: { params: s.sourceParams, payload: c.schedulePut }, response: { schema: c.schedule },
      },
      handler: (request) => schedules.put(tenantOf(request), sourceIdOf(request.params), request.payload as ScheduleInput),
    },
    {
      method: 'DELETE', path: base,
      options: { auth: 'bearer', tags, description: 'Delete the source\'s schedule', plugins: { platform: editor }, validate: { params: s.sourceParams } },
      handler: async (request, h) => {
        await schedules.remove(tenantOf(request), sourceIdOf(request.params));
        return h.response().code(204);
      },
    },
    action('pause', 'Pause the schedule (no timer until resumed)'),
    action('resume', 'Resume the schedule from now (occurrences missed while paused are not caught up)'),
    {
      method: 'POST', path: `${base}/trigger`,
      options: {
        auth: 'bearer', tags, description: 'Run the scheduled sync now (409 SYNC_IN_PROGRESS while a run is going; 409 NO_ENABLED_STREAMS with no enabled stream)',
        plugins: { platform: editor }, validate: { params: s.sourceParams }, response: { schema: r.run },
      },
      handler: async (request, h) => h.response(await schedules.trigger(tenantOf(request), sourceIdOf(request.params), principalOf(request).sub)).code(202),
    },
  ];
}
