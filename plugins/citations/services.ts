// The one factory of the citations plugin's services: its register and its
// CLI commands both build them here, from the core's services and the
// manifest's options. Verification reads chunks through the ingestion
// plugin's API, which only the server has (the CLI lists and counts).
import { type CoreServices, UsageError } from 'agent-platform/sdk';
import type { IngestionApi } from '../ingestion/api.ts';
import type { CitationsApi } from './api.ts';
import { parseBlock } from './block/parse.ts';
import { writeBlock } from './block/write.ts';
import { createLive } from './store/live.ts';
import type { CitationsOptions } from './options.ts';
import { createCitationsService } from './services/citations.ts';
import { createContextOwners } from './services/context-owners.ts';
import { citationsStore } from './store/citations.ts';
import { citationRecord } from './views/citation.ts';

const serverOnly = (): IngestionApi => {
  throw new UsageError('verifying citations needs the server (verify_citation or POST /api/citations/verify)');
};

export function createServices(core: CoreServices, options: CitationsOptions, ingestion: () => IngestionApi = serverOnly) {
  const logger = core.logger.child({ component: 'citations' });
  // Nothing listens until a subscriber comes (GraphQL citationVerified).
  const live = createLive({
    pool: core.pool,
    logger,
    // The embedded default (no DATABASE_URL) is one process whose NOTIFY does not cross connections.
    crossProcess: core.config.databaseUrl !== undefined,
    load: async (tenantId, ids) =>
      (await core.withTenant(tenantId, (trx) => citationsStore.getMany(trx, ids))).map(citationRecord),
  });
  const owners = createContextOwners();
  const citations = createCitationsService({ core, ingestion, owners, live, options, logger });
  const api: CitationsApi = {
    parseBlock,
    writeBlock,
    resolveReply: (tenantId, replyText, context) => citations.resolveReply(tenantId, replyText, context),
    recordShown: (tenantId, context, chunks) => citations.recordShown(tenantId, context, chunks),
    resolve: (tenantId, input, context) => citations.resolve(tenantId, input, context),
    verify: (tenantId, citationId, context) => citations.verify(tenantId, citationId, context),
    assignMessage: (trx, citationIds, messageId) => citations.assignMessage(trx, citationIds, messageId),
    ofMessages: (tenantId, messageIds, clientId) => citations.ofMessages(tenantId, messageIds, clientId),
  };
  return { live, owners, citations, api };
}

export type CitationsServices = ReturnType<typeof createServices>;
