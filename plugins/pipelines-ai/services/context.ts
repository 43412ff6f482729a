// What the AI services share: the core, the options, the model (undefined
// when none is configured) and the apis of the plugins they draft for (read
// when used: those plugins register first).
import type { CoreServices } from 'agent-platform/sdk';
import type { DatasetInfo, LakehouseApi } from '../../lakehouse/api.ts';
import type { PipelinesApi } from '../../pipelines/api.ts';
import type { PipelineSourcesApi } from '../../pipelines-sources/api.ts';
import type { TransformsApi } from '../../pipelines-transforms/api.ts';
import type { Model } from '../llm/model.ts';
import type { AiOptions } from '../options.ts';
import { profileColumns, type ColumnProfile } from '../suggestions/profile.ts';
import { aiStore } from '../store/ai.ts';

export interface AiPeers {
  lake(): LakehouseApi;
  transforms(): TransformsApi;
  pipelines(): PipelinesApi;
  sources(): PipelineSourcesApi;
}

export interface AiContext extends AiPeers {
  core: CoreServices;
  options: AiOptions;
  model: Model | undefined;
  /** A dataset under the read rule (400 malformed, 403 not readable, 404 absent) and its profiled columns. */
  profile(tenantId: string, datasetId: string): Promise<{ dataset: DatasetInfo; columns: ColumnProfile[] }>;
}

export function createContext(core: CoreServices, options: AiOptions, model: Model | undefined, peers: AiPeers): AiContext {
  return {
    core, options, model, ...peers,
    async profile(tenantId, datasetId) {
      const lake = peers.lake();
      const dataset = await lake.readable(tenantId, datasetId);
      const rows = await core.withTenant(tenantId, (trx) => aiStore.sampleRows(trx, lake.asOf(dataset), options.sampleRows));
      return { dataset, columns: profileColumns(dataset.columns, rows) };
    },
  };
}
