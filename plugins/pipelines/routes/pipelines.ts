// The pipeline routes: CRUD, step patches, DAG validation,
// versions, activation, pause. Handlers hand over to the pipeline service.
import type { ServerRoute } from '@hapi/hapi';
import { principalOf, tenantOf } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import * as s from '../schemas.ts';
import type { PipelineInput, PipelineService } from '../services/pipelines.ts';

const tags = ['api', 'pipelines'];
type Params = { pipeline_id: string; step_id: string };
const paramsOf = (params: unknown) => params as Params;

export function pipelineRoutes(pipelines: PipelineService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/v1/pipelines',
      options: {
        auth: 'bearer', tags, description: 'Create a pipeline (state draft): steps (transform by id or name, or inline SQL with an output table; inputs; materialization), schedule, sensor',
        plugins: { platform: editor }, validate: { payload: s.pipelineCreate }, response: { schema: s.pipeline },
      },
      handler: async (request, h) => h.response(await pipelines.create(tenantOf(request), request.payload as PipelineInput, principalOf(request).sub)).code(201),
    },
    {
      method: 'GET', path: '/api/v1/pipelines',
      options: { auth: 'bearer', tags, description: 'List the tenant\'s pipelines', plugins: { platform: member }, validate: { query: s.pageQuery }, response: { schema: s.pipelineList } },
      handler: (request) => pipelines.list(tenantOf(request), request.query as never),
    },
    {
      method: 'POST', path: '/api/v1/pipelines/validate-dag',
      options: {
        auth: 'bearer', tags, description: 'Validate a DAG (steps, or a stored pipeline): cycles named by their steps, missing inputs, unknown or unreadable datasets, two steps writing one output; the topological order',
        plugins: { platform: member }, validate: { payload: s.validateDagBody }, response: { schema: s.dagValidation },
      },
      handler: (request) => pipelines.validate(tenantOf(request), request.payload as never),
    },
    {
      method: 'GET', path: '/api/v1/pipelines/{pipeline_id}',
      options: { auth: 'bearer', tags, description: 'A pipeline: its current definition, state and versions', plugins: { platform: member }, validate: { params: s.pipelineParams }, response: { schema: s.pipeline } },
      handler: (request) => pipelines.get(tenantOf(request), paramsOf(request.params).pipeline_id),
    },
    {
      method: 'PUT', path: '/api/v1/pipelines/{pipeline_id}',
      options: {
        auth: 'bearer', tags, description: 'Update a pipeline\'s definition (the fields given); an active pipeline keeps running its activated version until activated again',
        plugins: { platform: editor }, validate: { params: s.pipelineParams, payload: s.pipelinePut }, response: { schema: s.pipeline },
      },
      handler: (request) => pipelines.update(tenantOf(request), paramsOf(request.params).pipeline_id, request.payload as PipelineInput),
    },
    {
      method: 'DELETE', path: '/api/v1/pipelines/{pipeline_id}',
      options: { auth: 'bearer', tags, description: 'Delete a pipeline, its versions and runs (its output datasets stay in the lake)', plugins: { platform: editor }, validate: { params: s.pipelineParams } },
      handler: async (request, h) => {
        await pipelines.remove(tenantOf(request), paramsOf(request.params).pipeline_id);
        return h.response().code(204);
      },
    },
    {
      method: 'PATCH', path: '/api/v1/pipelines/{pipeline_id}/steps/{step_id}',
      options: {
        auth: 'bearer', tags, description: 'Change one step (null removes a field; a new transform or SQL replaces the other source)',
        plugins: { platform: editor }, validate: { params: s.stepParams, payload: s.stepPatch }, response: { schema: s.pipeline },
      },
      handler: (request) => pipelines.patchStep(tenantOf(request), paramsOf(request.params).pipeline_id, paramsOf(request.params).step_id, request.payload as Record<string, unknown>),
    },
    {
      method: 'POST', path: '/api/v1/pipelines/{pipeline_id}/versions',
      options: {
        auth: 'bearer', tags, description: 'Snapshot the current definition as a new immutable version (its DAG must be valid: 400 DAG_INVALID)',
        plugins: { platform: editor }, validate: { params: s.pipelineParams, payload: s.versionBody }, response: { schema: s.version },
      },
      handler: async (request, h) => h.response(await pipelines.createVersion(tenantOf(request), paramsOf(request.params).pipeline_id, (request.payload as { note?: string } | null)?.note ?? '', principalOf(request).sub)).code(201),
    },
    {
      method: 'GET', path: '/api/v1/pipelines/{pipeline_id}/versions',
      options: { auth: 'bearer', tags, description: 'The pipeline\'s versions, newest first', plugins: { platform: member }, validate: { params: s.pipelineParams }, response: { schema: s.versionList } },
      handler: (request) => pipelines.listVersions(tenantOf(request), paramsOf(request.params).pipeline_id),
    },
    {
      method: 'POST', path: '/api/v1/pipelines/{pipeline_id}/activate',
      options: {
        auth: 'bearer', tags, description: 'Activate a version (default: the current definition, versioned when it changed): only one whose latest sandbox run succeeded (409 SANDBOX_REQUIRED) unless force: true',
        plugins: { platform: editor }, validate: { params: s.pipelineParams, payload: s.activateBody }, response: { schema: s.pipeline },
      },
      handler: (request) => pipelines.activate(tenantOf(request), paramsOf(request.params).pipeline_id, (request.payload ?? {}) as { version?: number; force?: boolean }, principalOf(request).sub),
    },
    {
      method: 'POST', path: '/api/v1/pipelines/{pipeline_id}/pause',
      options: { auth: 'bearer', tags, description: 'Pause an active pipeline: no scheduled or sensor runs until activated again', plugins: { platform: editor }, validate: { params: s.pipelineParams }, response: { schema: s.pipeline } },
      handler: (request) => pipelines.pause(tenantOf(request), paramsOf(request.params).pipeline_id),
    },
  ];
}
