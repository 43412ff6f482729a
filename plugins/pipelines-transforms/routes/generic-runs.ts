// /runs: generic run records external orchestrators
// report into (create, start, complete, fail, cancel; a state machine).
import type { ServerRoute } from '@hapi/hapi';
import { Joi, principalOf, tenantOf } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import type { GenericRunService, RunAction } from '../services/generic-runs.ts';

const tags = ['api', 'runs'];
const params = Joi.object({ id: Joi.string().pattern(/^\d{1,19}$/).required() });
const metadata = Joi.object().unknown(true).max(100);
const genericRun = Joi.object({
  id: Joi.string().description('Decimal string'),
  triggering_transform_id: Joi.string().allow(null).description('Null only on historical rows'),
  orchestrator_run_id: Joi.string().allow(null),
  job_name: Joi.string().allow(null),
  status: Joi.string().valid('pending', 'running', 'succeeded', 'failed', 'cancelled'),
  is_terminal: Joi.boolean(),
  message: Joi.string().allow(null),
  metadata: Joi.object().unknown(true),
  created_by: Joi.string().allow(null),
  created_at: Joi.date(),
  started_at: Joi.date().allow(null),
  finished_at: Joi.date().allow(null),
}).label('Run');
const create = Joi.object({
  triggering_transform_id: Joi.string().guid().required(),
  orchestrator_run_id: Joi.string().pattern(/^[A-Za-z0-9_.:-]{1,200}$/),
  job_name: Joi.string().max(200),
  metadata,
}).label('RunCreate');
const transitionBody = Joi.object({ message: Joi.string().max(10_000), metadata }).allow(null).label('RunTransition');
const listQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(100),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
  status: Joi.string().valid('pending', 'running', 'succeeded', 'failed', 'cancelled'),
  triggering_transform_id: Joi.string().guid(),
  orchestrator_run_id: Joi.string().pattern(/^[A-Za-z0-9_.:-]{1,200}$/),
});

export function genericRunRoutes(runs: GenericRunService): ServerRoute[] {
  const transition = (action: RunAction, description: string): ServerRoute => ({
    method: 'POST', path: `/api/v1/runs/{id}/${action}`,
    options: { auth: 'bearer', tags, description, plugins: { platform: editor }, validate: { params, payload: transitionBody }, response: { schema: genericRun } },
    handler: (request) => runs.transition(tenantOf(request), (request.params as { id: string }).id, action, (request.payload ?? {}) as never),
  });
  return [
    {
      method: 'POST', path: '/api/v1/runs',
      options: { auth: 'bearer', tags, description: 'Record a run an external orchestrator makes of a transform (status pending)', plugins: { platform: editor }, validate: { payload: create }, response: { schema: genericRun } },
      handler: async (request, h) => h.response(await runs.create(tenantOf(request), request.payload as never, principalOf(request).sub)).code(201),
    },
    {
      method: 'GET', path: '/api/v1/runs',
      options: { auth: 'bearer', tags, description: 'The tenant\'s run records, newest first', plugins: { platform: member }, validate: { query: listQuery }, response: { schema: Joi.object({ items: Joi.array().items(genericRun), limit: Joi.number(), offset: Joi.number() }).label('RunList') } },
      handler: (request) => {
        const { triggering_transform_id: transformId, orchestrator_run_id: orchestratorRunId, ...rest } = request.query as { triggering_transform_id?: string; orchestrator_run_id?: string; status?: string; limit: number; offset: number };
        return runs.list(tenantOf(request), { ...rest, transformId, orchestratorRunId });
      },
    },
    {
      method: 'GET', path: '/api/v1/runs/{id}',
      options: { auth: 'bearer', tags, description: 'A run record', plugins: { platform: member }, validate: { params }, response: { schema: genericRun } },
      handler: (request) => runs.get(tenantOf(request), (request.params as { id: string }).id),
    },
    transition('start', 'pending → running (409 RUN_STATE_CONFLICT otherwise)'),
    transition('complete', 'running → succeeded (409 RUN_STATE_CONFLICT otherwise)'),
    transition('fail', 'pending or running → failed (409 RUN_STATE_CONFLICT otherwise)'),
    transition('cancel', 'pending or running → cancelled (409 RUN_STATE_CONFLICT otherwise)'),
  ];
}
