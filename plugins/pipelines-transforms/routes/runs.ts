// /transform-runs: the tenant's transform runs, their
// logs, and cancel (really stops the SQL).
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import * as r from './runs.schemas.ts';
import type { RunService } from '../services/runs.ts';

const tags = ['api', 'transform-runs'];
const runIdOf = (params: unknown) => (params as { run_id: string }).run_id;

export function transformRunRoutes(runs: RunService): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/v1/transform-runs',
      options: { auth: 'bearer', tags, description: 'The tenant\'s transform runs, newest first', plugins: { platform: member }, validate: { query: r.transformRunListQuery }, response: { schema: r.transformRunList } },
      handler: (request) => {
        const { transform_id: transformId, ...rest } = request.query as { transform_id?: string; status?: string; limit: number; offset: number };
        return runs.list(tenantOf(request), { ...rest, transformId });
      },
    },
    {
      method: 'GET', path: '/api/v1/transform-runs/{run_id}',
      options: { auth: 'bearer', tags, description: 'A transform run', plugins: { platform: member }, validate: { params: r.transformRunParams }, response: { schema: r.transformRun } },
      handler: (request) => runs.get(tenantOf(request), runIdOf(request.params)),
    },
    {
      method: 'GET', path: '/api/v1/transform-runs/{run_id}/logs',
      options: { auth: 'bearer', tags, description: 'The run\'s log lines', plugins: { platform: member }, validate: { params: r.transformRunParams }, response: { schema: r.runLogs } },
      handler: (request) => runs.logs(tenantOf(request), runIdOf(request.params)),
    },
    {
      method: 'POST', path: '/api/v1/transform-runs/{run_id}/cancel',
      options: { auth: 'bearer', tags, description: 'Cancel a run: a queued one at once; a running one by cancelling its statement (pg_cancel_backend); 409 when it has ended', plugins: { platform: editor }, validate: { params: r.transformRunParams }, response: { schema: r.transformRun } },
      handler: (request, h) => runs.cancel(tenantOf(request), runIdOf(request.params)).then((run) => h.response(run).code(202)),
    },
  ];
}
