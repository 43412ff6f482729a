// Daily clean-up of sign-in links that expired more than a day ago (used or
// not): an expired link never signs anyone in; this only keeps the table small.
import type { LinksService } from '../services/links.ts';

export const PRUNE_TASK = 'console.prune_links';
export const PRUNE_CRON = '17 3 * * *';

export const pruneHandler = (links: LinksService) => async () => ({ pruned: await links.prune() });
