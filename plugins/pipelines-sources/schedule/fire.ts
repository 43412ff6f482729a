// What a source schedule's occurrence does (core.schedules fires it, with the
// platform's missed-run policy): one sync run starts; a run still going makes
// the occurrence "busy" (recorded, not queued).
import type { ScheduleKind } from 'agent-platform/sdk';
import type { SourcesContext } from '../services/context.ts';
import { runsStore } from '../store/runs.ts';
import { sourcesStore } from '../store/sources.ts';
import { isLive, startRun } from '../sync/start.ts';

/** The kind of core.schedules a source's schedule is (its subject: the source id). */
export const SOURCE_SCHEDULE = 'pipelines-sources.source';

export const sourceScheduleKind = (context: SourcesContext): ScheduleKind => ({
  graceSeconds: context.options.scheduleGraceSeconds,
  async onFire(trx, { tenantId, subject: sourceId }) {
    if (!(await sourcesStore.lock(trx, sourceId))) return { outcome: 'missed: the source is gone' }; // as a manual start does: one live run per source
    const live = await runsStore.latest(trx, sourceId);
    if (live && isLive(live.status)) return { outcome: `busy: run ${live.id} was still ${live.status}` };
    return { runId: (await startRun(context, trx, tenantId, sourceId, { trigger: 'schedule', createdBy: null })).id };
  },
});
