// Transform routes, POST /transforms included (the library, patterns and
// apply create transforms too). Members read; editors change and run.
import type { ServerRoute } from '@hapi/hapi';
import { principalOf, tenantOf, TENANT_SQL_NOTES } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import * as s from '../schemas.ts';
import * as r from './runs.schemas.ts';
import type { TransformsServices } from '../services.ts';

const tags = ['api', 'transforms'];
const idOf = (params: unknown) => (params as { transform_id: string }).transform_id;

export function transformRoutes(services: TransformsServices): ServerRoute[] {
  const { transforms, runs, execution, details, schedules } = services;
  const base = '/api/v1/transforms/{transform_id}';
  return [
    {
      method: 'GET', path: '/api/v1/transforms',
      options: { auth: 'bearer', tags, description: 'The tenant\'s transforms', plugins: { platform: member }, validate: { query: s.transformListQuery }, response: { schema: s.transformList } },
      handler: (request) => transforms.list(tenantOf(request), request.query as never),
    },
    {
      method: 'POST', path: '/api/v1/transforms',
      options: { auth: 'bearer', tags, description: 'Create a SQL transform (the SQL is analyzed: 400 with the errors when refused)', notes: TENANT_SQL_NOTES, plugins: { platform: editor }, validate: { payload: s.transformCreate }, response: { schema: s.transform } },
      handler: async (request, h) => h.response(await transforms.createOne(tenantOf(request), request.payload, principalOf(request).sub)).code(201),
    },
    {
      method: 'GET', path: base,
      options: { auth: 'bearer', tags, description: 'A transform', plugins: { platform: member }, validate: { params: s.transformParams }, response: { schema: s.transform } },
      handler: (request) => transforms.get(tenantOf(request), idOf(request.params)),
    },
    {
      method: 'GET', path: `${base}/detail`,
      options: { auth: 'bearer', tags, description: 'A transform with its SQL, parameters, lineage, schedule, last runs and artifacts', plugins: { platform: member }, validate: { params: s.transformParams } },
      handler: (request) => details.detail(tenantOf(request), idOf(request.params)),
    },
    {
      method: 'PATCH', path: base,
      options: { auth: 'bearer', tags, description: 'Change a transform (a SQL change is analyzed again)', notes: TENANT_SQL_NOTES, plugins: { platform: editor }, validate: { params: s.transformParams, payload: s.transformPatch }, response: { schema: s.transform } },
      handler: (request) => transforms.patchOne(tenantOf(request), idOf(request.params), request.payload),
    },
    {
      method: 'DELETE', path: base,
      options: { auth: 'bearer', tags, description: 'Delete a transform with the runs and artifacts it triggered, or archive it (?archive=true keeps its history)', plugins: { platform: editor }, validate: { params: s.transformParams, query: s.deleteQuery } },
      handler: async (request, h) => {
        const { archive } = request.query as { archive: boolean };
        const id = idOf(request.params);
        const tenantId = tenantOf(request);
        const archived = await transforms.remove(tenantId, id, archive, {
          pause: (trx) => schedules.pauseQuietly(trx, tenantId, id), disarm: (trx) => schedules.disarm(trx, tenantId, id),
        });
        return archived ? archived : h.response().code(204);
      },
    },
    {
      method: 'POST', path: `${base}/hydrate`,
      options: { auth: 'bearer', tags, description: 'Refresh the inferred output schema and lineage from the SQL and the datasets as they are now, without running it', notes: TENANT_SQL_NOTES, plugins: { platform: editor }, validate: { params: s.transformParams } },
      handler: (request) => transforms.hydrate(tenantOf(request), idOf(request.params)),
    },
    {
      method: 'POST', path: `${base}/materialize`,
      options: { auth: 'bearer', tags, description: 'Run the transform into its output dataset (one snapshot); wait=false answers 202 with the queued run', plugins: { platform: editor }, validate: { params: s.transformParams, payload: s.runBody.allow(null) }, response: { schema: r.transformRun } },
      handler: async (request, h) => {
        const body = (request.payload ?? { wait: true }) as { parameters?: Record<string, unknown>; wait: boolean };
        const run = await execution.materialize(tenantOf(request), idOf(request.params), body, principalOf(request).sub);
        return h.response(run).code(body.wait ? 200 : 202);
      },
    },
    {
      method: 'POST', path: `${base}/execute`,
      options: { auth: 'bearer', tags, description: 'Low-level execution callback of an orchestrator: adopts or creates the run row of that orchestrator run id and this transform', plugins: { platform: editor }, validate: { params: s.transformParams, payload: s.executeBody }, response: { schema: r.transformRun } },
      handler: async (request, h) => {
        const body = request.payload as { orchestrator_run_id: string; pipeline_run_id?: string; parameters?: Record<string, unknown>; wait: boolean };
        return h.response(await execution.execute(tenantOf(request), idOf(request.params), body, principalOf(request).sub)).code(body.wait ? 200 : 202);
      },
    },
    {
      method: 'GET', path: `${base}/runs`,
      options: { auth: 'bearer', tags, description: 'The transform\'s runs, newest first', plugins: { platform: member }, validate: { params: s.transformParams, query: s.pageQuery }, response: { schema: r.transformRunList } },
      handler: async (request) => {
        const id = idOf(request.params);
        await transforms.get(tenantOf(request), id);
        return runs.list(tenantOf(request), { ...(request.query as { limit: number; offset: number }), transformId: id });
      },
    },
    {
      method: 'GET', path: `${base}/runs/{run_id}`,
      options: { auth: 'bearer', tags, description: 'One run of the transform', plugins: { platform: member }, validate: { params: r.transformRunNestedParams }, response: { schema: r.transformRun } },
      handler: (request) => details.runOf(tenantOf(request), idOf(request.params), (request.params as { run_id: string }).run_id),
    },
  ];
}
