// The one factory of the transforms plugin's services (its register and its
// tests wire them the same way), and the api other plugins use.
import { type CoreServices, isUuid } from 'agent-platform/sdk';
import type { LakehouseApi } from '../lakehouse/api.ts';
import type { TransformsApi } from './api.ts';
import { createContext } from './services/context.ts';
import type { TransformsOptions } from './options.ts';
import { createArtifactService } from './services/artifacts.ts';
import { createDetailService } from './services/details.ts';
import { createDraftService } from './services/drafts.ts';
import { createExecutionService } from './services/execution.ts';
import { createGenericRunService } from './services/generic-runs.ts';
import { createLibraryService } from './services/library.ts';
import { createPatternService } from './services/patterns.ts';
import { createRunService } from './services/runs.ts';
import { createScheduleService } from './services/schedules.ts';
import { createTransformService, recordOf } from './services/transforms.ts';

export function createServices(core: CoreServices, options: TransformsOptions, lake: () => LakehouseApi) {
  const context = createContext(core, options, lake);
  const transforms = createTransformService(context);
  const runs = createRunService(context);
  const execution = createExecutionService(context, transforms, runs);
  const schedules = createScheduleService(context, transforms, runs);
  const details = createDetailService(context, transforms, runs);
  const genericRuns = createGenericRunService(context, transforms);
  const artifacts = createArtifactService(context);
  const library = createLibraryService(context, transforms);
  const patterns = createPatternService(context);
  const drafts = createDraftService(context);

  const api: TransformsApi = {
    analyzeSql: (tenantId, sql, parameters) => context.analyzer.analyzeSql(tenantId, sql, parameters),
    reviewSql: (tenantId, sql) => context.analyzer.reviewSql(tenantId, sql),
    async materialize(tenantId, request) {
      const { compiledSql: _compiled, ...result } = await context.materialize(tenantId, request, request.onBackend);
      return result;
    },
    getTransform: (tenantId, id, trx) => (isUuid(id) ? transforms.findRecord(tenantId, id, trx) : Promise.resolve(null)),
    findTransformByName: (tenantId, name, trx) => transforms.findRecordByName(tenantId, name, trx),
    async createTransform(tenantId, spec) {
      const values = await transforms.prepare(tenantId, spec, { kind: 'apply' });
      return recordOf(await core.withTenant(tenantId, (trx) => transforms.create(trx, tenantId, values, null)));
    },
    async patchTransform(tenantId, id, patch) {
      const prepared = await transforms.preparePatch(tenantId, id, patch);
      return recordOf(await core.withTenant(tenantId, (trx) => transforms.patch(trx, tenantId, prepared)));
    },
    runTransform: (tenantId, id, trigger) => execution.runTransform(tenantId, id, trigger),
    getTransformPattern: (id) => patterns.find(id),
    listTransforms: (tenantId, page) => transforms.listRecords(tenantId, page),
    getTransformRun: (tenantId, runId) => runs.record(tenantId, runId),
    cancelTransformRun: async (tenantId, runId) => {
      await runs.cancel(tenantId, runId);
      return (await runs.record(tenantId, runId))!;
    },
  };
  return { context, transforms, runs, execution, schedules, details, genericRuns, artifacts, library, patterns, drafts, api };
}

export type TransformsServices = ReturnType<typeof createServices>;
