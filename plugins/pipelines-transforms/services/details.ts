// The detail view of a transform (SQL, parameters, lineage, schedule, last
// runs, artifacts) and a run read through its transform.
import { notFound } from 'agent-platform/sdk';
import type { TransformsContext } from './context.ts';
import type { RunService } from './runs.ts';
import type { TransformService } from './transforms.ts';
import { transformView } from './transforms.ts';
import { artifactsStore } from '../store/artifacts.ts';
import { runsStore } from '../store/runs.ts';
import { scheduleView } from './schedules.ts';
import { TRANSFORM_SCHEDULE } from '../tasks/pipelines-transforms.schedule_fire.ts';
import { runView } from '../views/runs.ts';

const LAST_RUNS = 10;
const LAST_ARTIFACTS = 30;

export function createDetailService(context: TransformsContext, transforms: TransformService, runs: RunService) {
  const { core } = context;
  return {
    detail: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const transform = await transforms.find(trx, id);
      const [schedule, lastRuns, artifacts] = await Promise.all([
        core.schedules.get(trx, TRANSFORM_SCHEDULE, id),
        runsStore.list(trx, { transformId: id, limit: LAST_RUNS, offset: 0 }),
        artifactsStore.list(trx, { transformId: id, limit: LAST_ARTIFACTS, offset: 0 }),
      ]);
      return {
        ...transformView(transform),
        lineage: { inputs: transform.inputs, output: transform.output_dataset },
        schedule: schedule ? scheduleView(schedule, transform.name) : null,
        last_runs: lastRuns.map(runView),
        artifacts,
      };
    }),

    runOf: (tenantId: string, transformId: string, runId: string) => core.withTenant(tenantId, async (trx) => {
      await transforms.find(trx, transformId);
      const run = await runs.findRun(trx, runId);
      if (run.transform_id !== transformId) throw notFound(`Transform run ${runId} is not a run of this transform`, 'TRANSFORM_RUN_NOT_FOUND');
      return runView(run);
    }),
  };
}

export type DetailService = ReturnType<typeof createDetailService>;
