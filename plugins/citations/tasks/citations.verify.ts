// The bulk path's job: verifies citations created (or marked) `pending` in the
// transaction that enqueued it. Safe to retry: only rows still pending are
// verified, each batch in one transaction.
import type { FastTaskHandler } from 'agent-platform/sdk';
import type { CitationsService, VerifyJob } from '../services/citations.ts';

export function verifyTask(service: CitationsService): FastTaskHandler {
  return async (payload: VerifyJob) => {
    await service.runVerification(payload);
  };
}
