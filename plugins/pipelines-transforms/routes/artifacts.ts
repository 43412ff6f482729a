// /artifacts: members read.
import type { ServerRoute } from '@hapi/hapi';
import { Joi, tenantOf } from 'agent-platform/sdk';
import { member } from '../access.ts';
import type { ArtifactService } from '../services/artifacts.ts';

const tags = ['api', 'artifacts'];
const params = Joi.object({ artifact_id: Joi.string().guid().required() });
const artifact = Joi.object({
  id: Joi.string(), transform_id: Joi.string(), run_id: Joi.string().description('Transform run id (decimal string)'),
  kind: Joi.string().valid('compiled_sql', 'logs', 'output_summary'), name: Joi.string(), content_type: Joi.string(),
  size_bytes: Joi.number(), created_at: Joi.date(),
}).label('Artifact');
const listQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(100),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
  transform_id: Joi.string().guid(),
  run_id: Joi.string().pattern(/^\d{1,19}$/),
  kind: Joi.string().valid('compiled_sql', 'logs', 'output_summary'),
});
const idOf = (request: { params: unknown }) => (request.params as { artifact_id: string }).artifact_id;

export function artifactRoutes(artifacts: ArtifactService): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/v1/artifacts',
      options: { auth: 'bearer', tags, description: 'Artifacts of the tenant\'s transform runs (compiled SQL, logs, output summaries), newest first', plugins: { platform: member }, validate: { query: listQuery }, response: { schema: Joi.object({ items: Joi.array().items(artifact), limit: Joi.number(), offset: Joi.number() }).label('ArtifactList') } },
      handler: (request) => {
        const { transform_id: transformId, run_id: runId, ...rest } = request.query as { transform_id?: string; run_id?: string; kind?: string; limit: number; offset: number };
        return artifacts.list(tenantOf(request), { ...rest, transformId, runId });
      },
    },
    {
      method: 'GET', path: '/api/v1/artifacts/{artifact_id}',
      options: { auth: 'bearer', tags, description: 'An artifact\'s metadata', plugins: { platform: member }, validate: { params }, response: { schema: artifact } },
      handler: (request) => artifacts.get(tenantOf(request), idOf(request)),
    },
    {
      method: 'GET', path: '/api/v1/artifacts/{artifact_id}/content',
      options: { auth: 'bearer', tags, description: 'An artifact with its content as JSON (JSON artifacts parsed, others as text)', plugins: { platform: member }, validate: { params } },
      handler: async (request) => {
        const { content, ...meta } = await artifacts.content(tenantOf(request), idOf(request));
        return { ...meta, content: meta.content_type === 'application/json' ? JSON.parse(content) : content };
      },
    },
    {
      method: 'GET', path: '/api/v1/artifacts/{artifact_id}/download',
      options: { auth: 'bearer', tags, description: 'The artifact as a file (Content-Disposition: attachment)', plugins: { platform: member }, validate: { params } },
      handler: async (request, h) => {
        const { content, name, content_type: type } = await artifacts.content(tenantOf(request), idOf(request));
        return h.response(content).type(type).header('content-disposition', `attachment; filename="${name.replace(/[^A-Za-z0-9_.-]/g, '_')}"`);
      },
    },
  ];
}
