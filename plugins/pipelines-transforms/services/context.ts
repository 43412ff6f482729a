// What the transforms plugin's services share: the core, its options, the
// lakehouse's api (read when used: the lakehouse registers first), the SQL
// analyzer and the materializer.
import type { CoreServices } from 'agent-platform/sdk';
import type { LakehouseApi } from '../../lakehouse/api.ts';
import { createMaterializer, type Materializer } from '../materialization/materialize.ts';
import type { TransformsOptions } from '../options.ts';
import { createAnalyzer, type Analyzer } from './analysis.ts';

export interface TransformsContext {
  core: CoreServices;
  options: TransformsOptions;
  lake(): LakehouseApi;
  analyzer: Analyzer;
  materialize: Materializer;
}

export function createContext(core: CoreServices, options: TransformsOptions, lake: () => LakehouseApi): TransformsContext {
  const analyzer = createAnalyzer(core, lake);
  return { core, options, lake, analyzer, materialize: createMaterializer(core, options, analyzer, lake) };
}
