// CLI commands of the citations plugin: read-only views for operators (the
// CLI runs without the ingestion plugin, so it lists and counts; verification
// runs in the server, through verify_citation or POST /api/citations/verify).
import type { CoreServices } from 'agent-platform/sdk';
import { defineCli, UsageError } from 'agent-platform/sdk/cli';
import type { VerificationStatus } from './api.ts';
import type { CitationsOptions } from './options.ts';
import { citationView } from './views/citation.ts';
import { STATUSES } from './views/statuses.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;

function statusOf(value: string | undefined): VerificationStatus | undefined {
  if (value === undefined) return undefined;
  if (!STATUSES.includes(value as VerificationStatus)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
  return value as VerificationStatus;
}

function limitOf(value: string | undefined): number {
  if (value === undefined) return 50;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError('--limit must be an integer from 1 to 500');
  return limit;
}

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const services = async (core: CoreServices, options: CitationsOptions) => (await import('./services.ts')).createServices(core, options);

export const cli = defineCli(services, (command) => [
  command({
    name: 'citations list',
    description: 'List a tenant\'s citations, newest first',
    options: {
      tenant,
      status: { type: 'string', description: `verification status (${STATUSES.join(', ')})` },
      document: { type: 'string', description: 'document name contains (case-insensitive)' },
      limit: { type: 'string', description: 'how many (1 to 500, default 50)' },
    },
    run: async (_services, { options }, core) => {
      const filter = {
        ...(options.status !== undefined ? { verification_status: statusOf(options.status) } : {}),
        ...(typeof options.document === 'string' ? { document_name: options.document } : {}),
      };
      const { citationsStore } = await import('./store/citations.ts');
      const rows = await core.withTenant(options.tenant, (trx) => citationsStore.list(trx, filter, 0, limitOf(options.limit)));
      return rows.map(citationView);
    },
  }),
  command({
    name: 'citations stats',
    description: 'Counts of a tenant\'s citations per verification status, and their total',
    options: { tenant },
    run: async (_services, { options }, core) => {
      const { citationsStore } = await import('./store/citations.ts');
      const counts = await core.withTenant(options.tenant, (trx) => citationsStore.countByStatus(trx, {}));
      const stats: Record<string, number> = Object.fromEntries(STATUSES.map((s) => [s, counts.get(s) ?? 0]));
      stats.total = STATUSES.reduce((sum, s) => sum + stats[s], 0);
      return stats;
    },
  }),
]);
