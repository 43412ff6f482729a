// Another plugin's GraphQL field of type DatasetSnapshot (a run's or a step's
// snapshot): read as a member of the request's tenant (the rule of the lake's
// dataset routes), under the lakehouse's read rule, each dataset and snapshot
// once per request, so the rows of a page read theirs in one batch. A key
// that fails (a dataset not readable) fails its own field only.
import type { Request } from '@hapi/hapi';
import DataLoader from 'dataloader';
import { type GraphqlContext, requireMember } from 'agent-platform/sdk';
import type { GraphqlNode } from '../api.ts';

export type SnapshotField = (context: GraphqlContext, datasetId: string | null, snapshotId: string | null) => Promise<GraphqlNode | null> | null;

export function snapshotField(snapshotNode: (tenantId: string, datasetId: string, snapshotId: string) => Promise<GraphqlNode | null>): SnapshotField {
  const perRequest = new WeakMap<Request, DataLoader<string, GraphqlNode | null>>();
  return (context, datasetId, snapshotId) => {
    const tenantId = requireMember(context);
    if (!datasetId || !snapshotId) return null;
    let loader = perRequest.get(context.request);
    if (!loader) {
      loader = new DataLoader((keys: readonly string[]) => Promise.all(keys.map((key) => {
        const [dataset, snapshot] = key.split('\u0000');
        return snapshotNode(tenantId, dataset!, snapshot!).catch((err: Error) => err);
      })));
      perRequest.set(context.request, loader);
    }
    return loader.load(`${datasetId}\u0000${snapshotId}`);
  };
}
