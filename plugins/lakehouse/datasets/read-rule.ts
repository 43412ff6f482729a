// The dataset read rule, on the dataset's name alone:
// - the tenant's own layer (`raw.<tenant>.*` where its sources land,
//   `derived.<tenant>.*` where its transforms and pipelines register their
//   outputs, `sandbox.<tenant>.*` its sandbox runs): readable by that tenant;
// - the shared raw layers (`raw.<layer>.*`, a layer that is not a tenant
//   alias) and the whole registry namespace: readable by every tenant;
// - anything else (another tenant's layer, an unknown namespace, a derived
//   or sandbox dataset in a shared layer): 403, whether or not it exists, so
//   the answer says nothing of other tenants.
// The same rule guards whatever reads a dataset on a tenant's behalf
// (previews, snapshots, the /iceberg/ routes, transforms, backing datasets,
// mapping suggestions): they all go through LakehouseApi.readable.
import { isTenantLayer, type DatasetName } from './naming.ts';

export type ReadAccess = 'own' | 'shared' | 'denied';

export function readAccess(tenantId: string, name: DatasetName): ReadAccess {
  if (name.namespace === 'registry') return 'shared';
  if (!['raw', 'derived', 'sandbox'].includes(name.namespace)) return 'denied';
  if (name.layer === tenantId) return 'own';
  if (name.namespace === 'raw' && !isTenantLayer(name.layer)) return 'shared';
  return 'denied';
}
