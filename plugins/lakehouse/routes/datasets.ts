// The dataset routes and the deprecated /iceberg/ routes. Bearer members of the tenant named by X-Tenant-ID read (the read
// rule decides which datasets); nothing here changes a dataset.
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf, type ResponseToolkit, type RouteAccess } from 'agent-platform/sdk';
import type { DatasetService } from '../services/datasets.ts';
import type { LineageService } from '../services/lineage.ts';
import * as s from '../schemas.ts';

const member: RouteAccess = { tenant: 'required', explicitTenant: true };
const tags = ['api', 'datasets'];
const deprecated = ['api', 'datasets', 'deprecated'];

/** Deprecated routes say so in their headers too (RFC 9745 Deprecation, RFC 8288 Link). */
function deprecatedResponse(h: ResponseToolkit, body: object, successor: string) {
  return h.response(body as never).header('Deprecation', 'true').header('Link', `<${successor}>; rel="successor-version"`);
}

export function lakehouseRoutes(datasets: DatasetService, lineage: LineageService): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/v1/datasets',
      options: {
        auth: 'bearer', tags, description: 'List the datasets the tenant may read: its own and the shared ones',
        notes: 'In dataset id order; `q` keeps the datasets whose id contains it (case-insensitive), `namespace` one namespace.',
        plugins: { platform: member }, validate: { query: s.listQuery }, response: { schema: s.datasetList },
      },
      handler: (request) => datasets.list(tenantOf(request), request.query as never),
    },
    {
      method: 'GET', path: '/api/v1/datasets/{dataset_id}',
      options: {
        auth: 'bearer', tags, description: 'A dataset: columns, primary key, producer, latest snapshot (400 malformed id, 403 not readable under the read rule, 404 absent)',
        plugins: { platform: member }, validate: { params: s.datasetParams }, response: { schema: s.dataset },
      },
      handler: (request) => datasets.get(tenantOf(request), (request.params as { dataset_id: string }).dataset_id),
    },
    {
      method: 'GET', path: '/api/v1/datasets/{dataset_id}/preview',
      options: {
        auth: 'bearer', tags, description: 'The first rows of the latest snapshot, or of snapshot_id (time travel, as far back as retention keeps)',
        plugins: { platform: member }, validate: { params: s.datasetParams, query: s.previewQuery }, response: { schema: s.preview },
      },
      handler: (request) => {
        const query = request.query as { snapshot_id?: string; limit: number; offset: number };
        return datasets.preview(tenantOf(request), (request.params as { dataset_id: string }).dataset_id, { snapshotId: query.snapshot_id, limit: query.limit, offset: query.offset });
      },
    },
    {
      method: 'GET', path: '/api/v1/datasets/{dataset_id}/snapshots',
      options: {
        auth: 'bearer', tags, description: 'The dataset\'s snapshots, newest first (ids as numbers and _exact decimal strings)',
        plugins: { platform: member }, validate: { params: s.datasetParams, query: s.snapshotsQuery }, response: { schema: s.snapshotList },
      },
      handler: (request) => datasets.snapshots(tenantOf(request), (request.params as { dataset_id: string }).dataset_id, request.query as never),
    },
    {
      method: 'GET', path: '/api/v1/datasets/{dataset_id}/lineage',
      options: {
        auth: 'bearer', tags, description: 'The dataset\'s lineage: who writes it, the datasets it is computed from and the datasets computed from it',
        notes: 'From the kept snapshots\' records (retention bounds how far back): writers are the registered producer and the producers the snapshots name; upstream the inputs the snapshots were computed from; downstream the datasets whose snapshots name this one as an input. Only datasets the tenant may read are named (400 malformed id, 403 not readable, 404 absent).',
        plugins: { platform: member }, validate: { params: s.datasetParams }, response: { schema: s.lineage },
      },
      handler: (request) => lineage.lineage(tenantOf(request), (request.params as { dataset_id: string }).dataset_id),
    },
    {
      method: 'GET', path: '/api/v1/iceberg/tables',
      options: {
        auth: 'bearer', tags: deprecated, description: 'Deprecated: the datasets as tables (use GET /api/v1/datasets)',
        plugins: { platform: member, openapi: { deprecated: true } }, validate: { query: s.listQuery }, response: { schema: s.icebergTables },
      },
      handler: async (request, h) => deprecatedResponse(h, await datasets.icebergTables(tenantOf(request), request.query as never), '/api/v1/datasets'),
    },
    {
      method: 'GET', path: '/api/v1/iceberg/snapshots/{table}',
      options: {
        auth: 'bearer', tags: deprecated, description: 'Deprecated: a table\'s snapshots with snapshot_id_exact (use GET /api/v1/datasets/{dataset_id}/snapshots)',
        plugins: { platform: member, openapi: { deprecated: true } },
        validate: { params: s.icebergTableParams, query: s.icebergSnapshotsQuery }, response: { schema: s.icebergSnapshots },
      },
      handler: async (request, h) => {
        const table = (request.params as { table: string }).table;
        return deprecatedResponse(h, await datasets.icebergSnapshots(tenantOf(request), table, (request.query as { limit: number }).limit),
          `/api/v1/datasets/${encodeURIComponent(table)}/snapshots`);
      },
    },
  ];
}
