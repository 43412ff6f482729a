// The orchestrator endpoints (/temporal/...): they describe our
// job system (graphile-worker and pg-boss, honestly named) and start, read,
// cancel and wait for workflows of the caller's tenant.
import type { ServerRoute } from '@hapi/hapi';
import { Joi, principalOf, tenantOf } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import * as s from '../schemas.ts';
import type { createDescribeService } from '../temporal/describe.ts';
import type { WorkflowService } from '../temporal/workflows.ts';

const tags = ['api', 'temporal'];
const idOf = (params: unknown) => (params as { workflow_id: string }).workflow_id;

const anyObject = Joi.object().unknown(true);

export function temporalRoutes(describe: ReturnType<typeof createDescribeService>, workflows: WorkflowService): ServerRoute[] {
  const get = (path: string, description: string, handler: () => object | Promise<object>, platform = editor): ServerRoute => ({
    method: 'GET', path: `/api/v1/temporal${path}`,
    options: { auth: 'bearer', tags, description, plugins: { platform }, response: { schema: anyObject.label(`Temporal${path.replace(/[^a-z]/gi, '')}`) } },
    handler: () => handler(),
  });
  return [
    get('/health', 'Whether the job system (graphile-worker and pg-boss on PostgreSQL; no Temporal server) serves', () => describe.health(), member),
    get('/health/detailed', 'The job system\'s checks: database, graphile-worker, pg-boss', () => describe.detailed()),
    get('/config', 'The job system\'s configuration: worker concurrency, queues and their retry/expiry policies, pipeline options', () => describe.config()),
    get('/metrics', 'Job counts by queue and state from graphile-worker\'s and pg-boss\'s tables (the whole platform)', () => describe.metrics()),
    get('/workers', 'The workers of this process and the task queues they work', () => describe.workers()),
    get('/task-queues', 'Every task queue with its library and job counts by state', () => describe.taskQueues()),
    {
      method: 'POST', path: '/api/v1/temporal/workflows/schema-match',
      options: {
        auth: 'bearer', tags, description: 'Match a source dataset\'s columns to a target schema (or dataset) by name and type, deterministically; the workflow completes at once',
        plugins: { platform: editor }, validate: { payload: s.schemaMatchBody }, response: { schema: s.workflow },
      },
      handler: async (request, h) => h.response(await workflows.schemaMatch(tenantOf(request), request.payload as never, principalOf(request).sub)).code(201),
    },
    {
      method: 'POST', path: '/api/v1/temporal/workflows/transform',
      options: {
        auth: 'bearer', tags, description: 'Run a transform now (a transform run of the transforms plugin, which the workflow follows)',
        plugins: { platform: editor }, validate: { payload: s.transformWorkflowBody }, response: { schema: s.workflow },
      },
      handler: async (request, h) => h.response(await workflows.transform(tenantOf(request), (request.payload as { transform_id: string }).transform_id, principalOf(request).sub)).code(202),
    },
    {
      method: 'POST', path: '/api/v1/temporal/workflows/pipeline',
      options: {
        auth: 'bearer', tags, description: 'Run an active pipeline now (its activated version; 409 RUN_IN_PROGRESS while a run is live)',
        plugins: { platform: editor }, validate: { payload: s.pipelineWorkflowBody }, response: { schema: s.workflow },
      },
      handler: async (request, h) => h.response(await workflows.pipeline(tenantOf(request), (request.payload as { pipeline_id: string }).pipeline_id, principalOf(request).sub)).code(202),
    },
    {
      method: 'GET', path: '/api/v1/temporal/workflows/{workflow_id}',
      options: { auth: 'bearer', tags, description: 'A workflow of the tenant: type, status, result', plugins: { platform: member }, validate: { params: s.workflowParams }, response: { schema: s.workflow } },
      handler: (request) => workflows.find(tenantOf(request), idOf(request.params)),
    },
    {
      method: 'POST', path: '/api/v1/temporal/workflows/{workflow_id}/cancel',
      options: { auth: 'bearer', tags, description: 'Cancel a pipeline run (pending steps never start; a running step\'s statement is cancelled) or a transform workflow\'s transform run', plugins: { platform: editor }, validate: { params: s.workflowParams }, response: { schema: s.workflow } },
      handler: (request) => workflows.cancel(tenantOf(request), idOf(request.params)),
    },
    {
      method: 'POST', path: '/api/v1/temporal/workflows/{workflow_id}/wait',
      options: {
        auth: 'bearer', tags, description: 'Long-poll until the workflow is terminal or timeout_seconds pass (timed_out tells which)',
        plugins: { platform: member }, validate: { params: s.workflowParams, payload: s.waitBody }, response: { schema: s.workflow },
      },
      handler: (request) => {
        const controller = new AbortController();
        request.raw.req.once('close', () => controller.abort());
        return workflows.wait(tenantOf(request), idOf(request.params), (request.payload as { timeout_seconds?: number } | null)?.timeout_seconds ?? 30, controller.signal);
      },
    },
  ];
}
