// The sync, run and discovery routes. Starting a sync
// or a discovery needs an editor; reading runs, logs and refs a member.
import type { ServerRoute } from '@hapi/hapi';
import { principalOf, tenantOf } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import * as s from '../schemas.ts';
import * as r from './runs.schemas.ts';
import type { RunService } from '../services/runs.ts';

const tags = ['api', 'sources'];
type Params = { source_id: string; run_id: string; sync_run_id: string; workflow_id: string };
const p = (params: unknown) => params as Params;

export function runRoutes(runs: RunService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/v1/sources/discover',
      options: {
        auth: 'bearer', tags, description: 'Discover a source\'s streams in the background: answers a workflow_id to poll',
        plugins: { platform: editor }, validate: { payload: r.discoverBody }, response: { schema: r.discoveryStarted },
      },
      handler: async (request, h) => {
        const body = request.payload as { source_id: string; apply: boolean };
        return h.response(await runs.discover(tenantOf(request), body.source_id, body.apply)).code(202);
      },
    },
    {
      method: 'GET', path: '/api/v1/sources/discover/status/{workflow_id}',
      options: {
        auth: 'bearer', tags, description: 'A discovery: its status, and the streams found (a refresh-schema body)',
        plugins: { platform: member }, validate: { params: r.discoveryParams }, response: { schema: r.discovery },
      },
      handler: (request) => runs.discoveryStatus(tenantOf(request), p(request.params).workflow_id),
    },
    {
      method: 'POST', path: '/api/v1/sources/{source_id}/sync',
      options: {
        auth: 'bearer', tags, description: 'Start a sync run of the source (409 SYNC_IN_PROGRESS while one is queued or running; 409 NO_ENABLED_STREAMS with no enabled stream)',
        notes: 'Queues a run of the enabled streams (or those named) and answers 202 with it. Refused, queuing nothing: 409 SYNC_IN_PROGRESS while a run of the source is queued or running; 409 NO_ENABLED_STREAMS when no enabled stream would be read (none discovered, a discovery not applied, every stream disabled, or none of the names given is an enabled stream): discover the streams and enable them, or discover with apply: true, first.',
        plugins: { platform: editor }, validate: { params: s.sourceParams, payload: r.syncBody }, response: { schema: r.run },
      },
      handler: async (request, h) => {
        const body = (request.payload ?? {}) as { streams?: string[] };
        return h.response(await runs.start(tenantOf(request), p(request.params).source_id, { streams: body.streams, trigger: 'manual', createdBy: principalOf(request).sub })).code(202);
      },
    },
    {
      method: 'GET', path: '/api/v1/sources/{source_id}/sync/status',
      options: {
        auth: 'bearer', tags, description: 'The source\'s latest sync run with its streams',
        plugins: { platform: member }, validate: { params: s.sourceParams }, response: { schema: r.syncStatus },
      },
      handler: (request) => runs.status(tenantOf(request), p(request.params).source_id),
    },
    {
      method: 'GET', path: '/api/v1/sources/{source_id}/sync-history',
      options: {
        auth: 'bearer', tags, description: 'The source\'s sync runs, newest first',
        plugins: { platform: member }, validate: { params: s.sourceParams, query: r.historyQuery }, response: { schema: r.runList },
      },
      handler: (request) => runs.history(tenantOf(request), p(request.params).source_id, request.query as never),
    },
    {
      method: 'GET', path: '/api/v1/sources/{source_id}/sync-history/stats',
      options: {
        auth: 'bearer', tags, description: 'Counts of the source\'s runs by outcome, rows, average duration, last success and failure',
        plugins: { platform: member }, validate: { params: s.sourceParams }, response: { schema: r.syncStats },
      },
      handler: (request) => runs.stats(tenantOf(request), p(request.params).source_id),
    },
    {
      method: 'GET', path: '/api/v1/sources/{source_id}/iceberg-refs',
      options: {
        auth: 'bearer', tags: [...tags, 'deprecated'], description: 'Per stream, the dataset and the snapshot of its last successful sync (name kept from the Iceberg era)',
        plugins: { platform: member }, validate: { params: s.sourceParams }, response: { schema: r.refs },
      },
      handler: (request) => runs.refs(tenantOf(request), p(request.params).source_id),
    },
    {
      method: 'GET', path: '/api/v1/sources/{source_id}/runs/{run_id}/logs',
      options: {
        auth: 'bearer', tags, description: 'A run\'s log lines (no credential value ever appears in them)',
        plugins: { platform: member }, validate: { params: r.runParams, query: r.logsQuery }, response: { schema: r.logs },
      },
      handler: (request) => runs.logs(tenantOf(request), p(request.params).source_id, p(request.params).run_id, request.query as never),
    },
    {
      method: 'GET', path: '/api/v1/sources/{source_id}/runs/{run_id}/logs/download',
      options: {
        auth: 'bearer', tags, description: 'A run\'s log as a text file',
        plugins: { platform: member }, validate: { params: r.runParams },
      },
      handler: async (request, h) => {
        const { source_id, run_id } = p(request.params);
        const { items } = await runs.logs(tenantOf(request), source_id, run_id, { after: 0, limit: 100_000 });
        const text = items.map((line) => `${line.at.toISOString()} ${line.level.toUpperCase()} ${line.message}\n`).join('');
        return h.response(text).type('text/plain; charset=utf-8').header('Content-Disposition', `attachment; filename="sync-run-${run_id}.log"`);
      },
    },
    {
      method: 'GET', path: '/api/v1/sources/sync-runs/{sync_run_id}/streams',
      options: {
        auth: 'bearer', tags, description: 'The streams of a sync run: rows read, added, removed, snapshot, cursor',
        plugins: { platform: member }, validate: { params: r.syncRunParams }, response: { schema: r.runStreamList },
      },
      handler: (request) => runs.runStreams(tenantOf(request), p(request.params).sync_run_id),
    },
    {
      method: 'GET', path: '/api/v1/sources/sync-runs/{workflow_id}/details',
      options: {
        auth: 'bearer', tags, description: 'A sync run found by its workflow (orchestrator run) id, with its streams',
        plugins: { platform: member }, validate: { params: r.workflowParams }, response: { schema: r.run },
      },
      handler: (request) => runs.details(tenantOf(request), p(request.params).workflow_id),
    },
  ];
}
