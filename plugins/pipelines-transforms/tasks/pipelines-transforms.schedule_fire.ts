// What a transform schedule's occurrence does (core.schedules fires it, with
// the platform's missed-run policy): the transform's run is queued; a run
// still going makes the occurrence "busy" (recorded, not queued).
import type { ScheduleKind } from 'agent-platform/sdk';
import type { TransformsContext } from '../services/context.ts';
import type { RunService } from '../services/runs.ts';
import { runsStore } from '../store/runs.ts';
import { transformsStore } from '../store/transforms.ts';

/** The kind of core.schedules a transform's schedule is (its subject: the transform id). */
export const TRANSFORM_SCHEDULE = 'pipelines-transforms.transform';

export const transformScheduleKind = (context: TransformsContext, runs: RunService): ScheduleKind => ({
  graceSeconds: context.options.scheduleGraceSeconds,
  async onFire(trx, { tenantId, subject }) {
    const transform = await transformsStore.find(trx, subject, true);
    if (!transform) return { outcome: 'missed: the transform is gone' };
    if (await runsStore.live(trx, transform.id)) return { outcome: 'busy: a run was still going' };
    return { runId: String(await runs.queue(trx, tenantId, transform, { trigger: 'schedule', createdBy: null })) };
  },
});
