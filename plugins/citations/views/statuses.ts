// The verification statuses of a citation.
import type { VerificationStatus } from '../api.ts';

export const STATUSES: readonly VerificationStatus[] = ['verified', 'failed', 'pending', 'unverified', 'out_of_provenance'];
