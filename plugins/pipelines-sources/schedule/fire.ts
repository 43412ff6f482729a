// What a source schedule's occurrence does (core.schedules fires it, with the
// platform's missed-run policy): one sync run starts; a run still going makes
// the occurrence "busy" (recorded, not queued); a source with no enabled
// stream makes it "skipped: NO_ENABLED_STREAMS: ..." (recorded and logged,
// nothing queued, the schedule stays armed for its next occurrence).
import type { ScheduleKind } from 'agent-platform/sdk';
import type { SourcesContext } from '../services/context.ts';
import { runsStore } from '../store/runs.ts';
import { sourcesStore } from '../store/sources.ts';
import { NO_ENABLED_STREAMS, noEnabledStreamsMessage } from '../sync/no-streams.ts';
import { hasStreamsToSync, isLive, startRun } from '../sync/start.ts';

/** The kind of core.schedules a source's schedule is (its subject: the source id). */
export const SOURCE_SCHEDULE = 'pipelines-sources.source';

export const sourceScheduleKind = (context: SourcesContext): ScheduleKind => ({
  graceSeconds: context.options.scheduleGraceSeconds,
  async onFire(trx, { tenantId, subject: sourceId }) {
    if (!(await sourcesStore.lock(trx, sourceId))) return { outcome: 'missed: the source is gone' }; // as a manual start does: one live run per source
    const live = await runsStore.latest(trx, sourceId);
    if (live && isLive(live.status)) return { outcome: `busy: run ${live.id} was still ${live.status}` };
    if (!(await hasStreamsToSync(trx, sourceId))) {
      context.core.logger.warn({ tenantId, sourceId }, `pipelines-sources: scheduled sync skipped, ${NO_ENABLED_STREAMS}`);
      return { outcome: `skipped: ${NO_ENABLED_STREAMS}: ${noEnabledStreamsMessage()}` };
    }
    return { runId: (await startRun(context, trx, tenantId, sourceId, { trigger: 'schedule', createdBy: null })).id };
  },
});
