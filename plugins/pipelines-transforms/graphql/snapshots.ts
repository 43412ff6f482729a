// The lake snapshot a run wrote, for TransformRun.snapshot: read through the
// lakehouse's api as a member of the request's tenant (the rule of the run's
// own fields and of the lake's dataset routes), under the lakehouse's read
// rule, each dataset and snapshot once per request: a page of runs reads
// theirs in one batch.
import type { Request } from '@hapi/hapi';
import DataLoader from 'dataloader';
import { type GraphqlContext, requireMember } from 'agent-platform/sdk';
import type { GraphqlNode, LakehouseApi } from '../../lakehouse/api.ts';

export type SnapshotOf = (context: GraphqlContext, datasetId: string | null, snapshotId: string | null) => Promise<GraphqlNode | null> | null;

export function snapshotLoader(lake: () => LakehouseApi): SnapshotOf {
  const perRequest = new WeakMap<Request, DataLoader<string, GraphqlNode | null>>();
  return (context, datasetId, snapshotId) => {
    const tenantId = requireMember(context);
    if (!datasetId || !snapshotId) return null;
    let loader = perRequest.get(context.request);
    if (!loader) {
      // A key that fails (a dataset not readable) fails its own field only.
      loader = new DataLoader((keys: readonly string[]) => Promise.all(keys.map((key) => {
        const [dataset, snapshot] = key.split('\u0000');
        return lake().snapshotNode(tenantId, dataset!, snapshot!).catch((err: Error) => err);
      })));
      perRequest.set(context.request, loader);
    }
    return loader.load(`${datasetId}\u0000${snapshotId}`);
  };
}
