// The pg-boss handler of `ingestion.stage`. A ParseError or a stage timeout is
// fatal at once (the same bytes fail the same way); any other error (database
// restart, a crash) is retried by pg-boss up to INGESTION_STAGE_RETRIES times,
// and the last attempt's failure fails the document. Either way the document
// ends in `error` with the message and `document.ingestion_failed`.
import type { JobContext } from 'agent-platform/sdk';
import { ParseError } from '../parsers/types.ts';
import { StageTimeout } from './timeout.ts';
import { failStage, runStage, type StageDeps } from './stages.ts';
import type { StageJob } from './runs.ts';

export function stageHandler(deps: StageDeps) {
  return async (job: StageJob, context: JobContext & { id: string }): Promise<void> => {
    try {
      await runStage(deps, job, context.signal);
    } catch (err) {
      const fatal = err instanceof ParseError || err instanceof StageTimeout;
      const lastAttempt = context.attempt > deps.settings.stageRetries;
      const message = err instanceof Error ? err.message : String(err);
      if (!fatal && !lastAttempt) {
        deps.core.logger.warn({ document_id: job.document_id, stage: job.stage, attempt: context.attempt, err: message }, 'ingestion stage failed; retrying');
        throw err;
      }
      if (!fatal) deps.core.logger.error({ document_id: job.document_id, stage: job.stage, err: message }, 'ingestion stage failed');
      await failStage(deps, job, message);
    }
  };
}
