// `ingestion.stage`: runs a stage of a document's run and the light stages
// after it (pipeline/stages.ts). A ParseError or a stage timeout is fatal at
// once (the same bytes fail the same way); any other error (database restart,
// a crash) is retried by pg-boss up to INGESTION_STAGE_RETRIES times, and the
// last attempt's failure fails the document. Either way the document ends in
// `error` with the message and `document.ingestion_failed`.
import type { JobContext, LongTaskOptions } from 'agent-platform/sdk';
import { ParseError } from '../parsers/types.ts';
import { StageTimeout } from '../pipeline/timeout.ts';
import { failStage, runStage, type StageDeps } from '../pipeline/stages.ts';
import type { IngestionSettings } from '../config/settings.ts';
import type { StagePayload } from './payloads.ts';

export function stageTaskOptions(settings: IngestionSettings): LongTaskOptions {
  // A job may parse, chunk and embed: it expires only after all three timeouts (and a margin).
  const expireInSeconds = settings.parseTimeoutSeconds + settings.chunkTimeoutSeconds + settings.embedTimeoutSeconds + 120;
  return { concurrency: settings.maxActivities, retryLimit: settings.stageRetries, retryDelaySeconds: 2, retryBackoff: true, expireInSeconds };
}

export function stageTask(deps: StageDeps) {
  return async (payload: StagePayload, context: JobContext & { id: string }): Promise<void> => {
    try {
      await runStage(deps, payload, context.signal);
    } catch (err) {
      const fatal = err instanceof ParseError || err instanceof StageTimeout;
      const lastAttempt = context.attempt > deps.settings.stageRetries;
      const message = err instanceof Error ? err.message : String(err);
      if (!fatal && !lastAttempt) {
        deps.core.logger.warn({ document_id: payload.document_id, stage: payload.stage, attempt: context.attempt, err: message }, 'ingestion stage failed; retrying');
        throw err;
      }
      if (!fatal) deps.core.logger.error({ document_id: payload.document_id, stage: payload.stage, err: message }, 'ingestion stage failed');
      await failStage(deps, payload, message);
    }
  };
}
