// `mail.sweep`: every minute, each tenant's messages whose attempt is due and
// that no job delivered (a job lost with its process, a crash during an
// attempt whose lease ran out) get a delivery job again.
import type { Delivery } from '../services/delivery.ts';

export const SWEEP_TASK = 'mail.sweep';
export const SWEEP_CRON = '* * * * *';

export const sweepTask = (delivery: Delivery) => async () => ({ enqueued: await delivery.sweep() });
