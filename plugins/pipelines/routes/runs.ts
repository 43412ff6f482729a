// Sandbox runs, run history and the transforms a step may use.
import type { ServerRoute } from '@hapi/hapi';
import { principalOf, tenantOf } from 'agent-platform/sdk';
import type { PipelinesContext } from '../services/context.ts';
import { editor, member } from '../access.ts';
import * as s from '../schemas.ts';
import type { RunService } from '../services/runs.ts';

const tags = ['api', 'pipelines'];
type Params = { pipeline_id: string; workflow_id: string };
const paramsOf = (params: unknown) => params as Params;

export function runRoutes(context: PipelinesContext, runs: RunService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/v1/pipelines/{pipeline_id}/sandbox',
      options: {
        auth: 'bearer', tags, description: 'Run the whole DAG of a version (default: the current definition, versioned when changed) into the sandbox namespace with a row limit; production datasets are never written. Returns the workflow id',
        plugins: { platform: editor }, validate: { params: s.pipelineParams, payload: s.sandboxBody }, response: { schema: s.workflowStarted },
      },
      handler: async (request, h) => h.response(await runs.startSandbox(tenantOf(request), paramsOf(request.params).pipeline_id, (request.payload as { version?: number } | null)?.version, principalOf(request).sub)).code(202),
    },
    {
      method: 'GET', path: '/api/v1/pipelines/{pipeline_id}/sandbox/{workflow_id}/status',
      options: {
        auth: 'bearer', tags, description: 'A sandbox run: its status and per-step results (rows, schema, sample rows, errors, timings)',
        plugins: { platform: member }, validate: { params: s.sandboxParams }, response: { schema: s.run },
      },
      handler: (request) => runs.get(tenantOf(request), paramsOf(request.params).workflow_id, { pipelineId: paramsOf(request.params).pipeline_id, kind: 'sandbox' }),
    },
    {
      method: 'GET', path: '/api/v1/pipelines/{pipeline_id}/runs',
      options: {
        auth: 'bearer', tags, description: 'The pipeline\'s runs (sandbox and production), newest first, with step results',
        plugins: { platform: member }, validate: { params: s.pipelineParams, query: s.pageQuery.keys({ kind: s.runKind }) }, response: { schema: s.runList },
      },
      handler: (request) => {
        const { kind, ...page } = request.query as { kind?: 'sandbox' | 'production'; limit: number; offset: number };
        return runs.list(tenantOf(request), { pipelineId: paramsOf(request.params).pipeline_id, kind }, page);
      },
    },
    {
      method: 'GET', path: '/api/v1/pipelines/available-transforms',
      options: {
        auth: 'bearer', tags, description: 'The tenant\'s transforms a step may name (id, name, output dataset, inputs, materialization), by id: pass `next` as `after` for the following page',
        plugins: { platform: member }, validate: { query: s.availableTransformsQuery }, response: { schema: s.availableTransforms },
      },
      handler: (request) => availableTransforms(context, tenantOf(request), request.query as { limit: number; after?: string }),
    },
  ];
}

/** The tenant's transforms through the transforms api (the route checked the caller's role), by id after a cursor. */
async function availableTransforms(context: PipelinesContext, tenantId: string, page: { limit: number; after?: string }) {
  const listed = await context.transforms().listTransforms(tenantId, { first: page.limit, after: page.after });
  return {
    items: listed.items.map((t) => ({
      id: t.id, name: t.name, output_dataset: t.output_dataset, inputs: t.inputs, materialization: t.materialization, unique_key: t.unique_key, status: t.status,
    })),
    total: listed.total, limit: page.limit, next: listed.next,
  };
}
