// The citations service: resolving and verifying citations, the bulk path of
// a reply's <citations> block, provenance, and the queries behind REST and
// GraphQL. Knows nothing of HTTP. Every read and write runs in the tenant's
// transaction (row-level security); chunks come from the ingestion API in
// that same transaction.
import type { Logger } from 'pino';
import { type CoreServices, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { ChunkRecord, DocumentSummary, IngestionApi } from '../../ingestion/api.ts';
import type { ContextOwners } from './context-owners.ts';
import type { Citation, CitationEntry, CitationRecord, ChunkRef, ExecutionContext, ResolvedEntry, VerificationStatus } from '../api.ts';
import { parseBlock } from '../block/parse.ts';
import { citationsStore, type CitationFilter } from '../store/citations.ts';
import { provenanceStore } from '../store/provenance.ts';
import { checksProvenance } from '../provenance/walk.ts';
import { contextColumns, snapshotOf, verdictColumns, type NewCitation } from '../store/records.ts';
import { verdict } from '../match/verification.ts';
import { citationRecord, citationView, chatStatusView } from '../views/citation.ts';
import type { CitationRow } from '../store/tables.ts';
import type { Live } from '../store/live.ts';
import type { CitationsOptions } from '../options.ts';

export const VERIFY_TASK = 'citations.verify';
/** Citations per verification job: one job's transaction stays short. */
export const VERIFY_BATCH = 100;
/** The most citations one bulk verify request may name. */
export const MAX_BULK_VERIFY = 500;

import { STATUSES } from '../views/statuses.ts';

export { STATUSES };

export interface CitationsDeps {
  core: Pick<CoreServices, 'withTenant' | 'jobs'>;
  ingestion: () => IngestionApi;
  /** Who owns a context (a chat session: an embed token's chat status). */
  owners: ContextOwners;
  live: Live;
  options: CitationsOptions;
  logger: Logger;
}

export interface VerifyJob {
  tenant_id: string;
  citation_ids: string[];
  /** Who asked for the verification (recorded as verified_by). */
  context: ExecutionContext;
}

export type CitationStats = Record<VerificationStatus, number> & { total: number };

export function createCitationsService(deps: CitationsDeps) {
  const { core, live } = deps;

  /** Runs tenant work, then pushes the citations it verified to subscribers once it has committed. */
  async function verifying<T>(tenantId: string, work: (trx: TenantTransaction, verified: Citation[]) => Promise<T>): Promise<T> {
    const verified: Citation[] = [];
    const result = await core.withTenant(tenantId, async (trx) => {
      const value = await work(trx, verified);
      if (verified.length > 0) await live.announce(trx, tenantId, verified.map((c) => c.id));
      return value;
    });
    if (verified.length > 0) live.publish(verified);
    return result;
  }

  /** Which of these chunks the context was shown; null for each where provenance does not apply. */
  async function shownTo(trx: TenantTransaction, context: ExecutionContext, chunkIds: string[]): Promise<(id: string) => boolean | null> {
    if (!checksProvenance(context)) return () => null;
    const shown = await provenanceStore.shown(trx, context, chunkIds);
    return (id) => shown.has(id);
  }

  async function chunksById(trx: TenantTransaction, ids: readonly string[]): Promise<Map<string, ChunkRecord>> {
    const unique = [...new Set(ids)];
    const chunks = unique.length === 0 ? [] : await deps.ingestion().getChunks(trx, unique);
    return new Map(chunks.map((chunk) => [chunk.chunk_id, chunk]));
  }

  /** Verifies locked rows against their chunks as they are now; collects what changed for subscribers. */
  async function verifyRows(trx: TenantTransaction, rows: CitationRow[], verifier: ExecutionContext, verified: Citation[]) {
    const chunks = await chunksById(trx, rows.map((row) => row.chunk_id));
    const updated: CitationRow[] = [];
    for (const row of rows) {
      const result = verdict({
        chunk: chunks.get(row.chunk_id), revisionId: row.revision_id, quote: row.quoted_text, shown: row.shown_to_context,
      });
      const saved = await citationsStore.update(trx, row.id, verdictColumns(result, verifier));
      if (!saved) continue;
      updated.push(saved);
      if (result.checked) verified.push(citationRecord(saved));
    }
    return updated;
  }

  return {
    /** resolve_citation: one citation of a chunk as it is now, verified when a quote is given. */
    async resolve(tenantId: string, input: { chunk_id: string; quoted_text?: string | null }, context: ExecutionContext): Promise<Citation> {
      const chunkId = input.chunk_id.toLowerCase();
      return verifying(tenantId, async (trx, verified) => {
        const chunk = await deps.ingestion().getChunk(trx, chunkId);
        if (!chunk) throw notFound(`Chunk not found: ${chunkId}`, 'CHUNK_NOT_FOUND');
        const shown = (await shownTo(trx, context, [chunkId]))(chunkId);
        const quote = input.quoted_text ?? null;
        const result = verdict({ chunk, revisionId: chunk.revision_id, quote, shown });
        const [row] = await citationsStore.insert(trx, [{
          tenant_id: tenantId, chunk_id: chunkId, revision_id: chunk.revision_id, ...snapshotOf(chunk), ...contextColumns(context),
          quoted_text: quote, shown_to_context: shown, ...verdictColumns(result, context),
        }]);
        const view = citationView(row);
        if (result.checked) verified.push(view);
        return view;
      });
    },

    /** verify_citation: a fresh status and match type from the chunk as it is now (a deleted chunk: failed, not_found). */
    async verify(tenantId: string, citationId: string, context: ExecutionContext): Promise<Citation> {
      return verifying(tenantId, async (trx, verified) => {
        const rows = await citationsStore.lockMany(trx, [citationId]);
        if (rows.length === 0) throw notFound(`Citation not found: ${citationId}`, 'CITATION_NOT_FOUND');
        const [row] = await verifyRows(trx, rows, context, verified);
        return citationView(row);
      });
    },

    /**
     * Resolves every entry of the reply's <citations> block. Up to
     * inlineVerifyLimit entries are verified here; a larger block is created
     * `pending` in this transaction with a job that verifies it (bulk path).
     */
    async resolveReply(tenantId: string, replyText: string, context: ExecutionContext) {
      const parsed = parseBlock(replyText);
      if (parsed.entries.length === 0) return { entries: [] as ResolvedEntry[], errors: parsed.errors };
      const bulk = parsed.entries.length > deps.options.inlineVerifyLimit;
      const entries = await verifying(tenantId, async (trx, verified) => {
        const chunks = await chunksById(trx, parsed.entries.map((entry) => entry.chunk_id));
        const shown = await shownTo(trx, context, parsed.entries.map((entry) => entry.chunk_id));
        const rows: NewCitation[] = [];
        const results = parsed.entries.map((entry) => {
          const chunk = chunks.get(entry.chunk_id);
          const input = { chunk, revisionId: entry.revision_id, quote: entry.quote ?? null, shown: shown(entry.chunk_id) };
          const result = bulk ? undefined : verdict(input);
          // The cited revision's chunk gives the snapshot; a chunk of another revision, or none, leaves what the reply claimed.
          const source = chunk && chunk.revision_id === entry.revision_id ? chunk : undefined;
          rows.push({
            tenant_id: tenantId, chunk_id: entry.chunk_id, revision_id: entry.revision_id, ...snapshotOf(source, entry), ...contextColumns(context),
            quoted_text: input.quote, shown_to_context: input.shown,
            ...(result ? verdictColumns(result, context) : { verification_status: 'pending' as const }),
          });
          return result;
        });
        const saved = await citationsStore.insert(trx, rows);
        saved.forEach((row, i) => {
          if (results[i]?.checked) verified.push(citationView(row));
        });
        if (bulk) await enqueueVerification(trx, tenantId, saved.map((row) => row.id), context);
        return saved.map((row, i) => resolvedEntry(parsed.entries[i], row));
      });
      return { entries, errors: parsed.errors };
    },

    /** Marks existing citations pending and queues their verification (REST/GraphQL bulk verify). */
    async queueVerification(tenantId: string, citationIds: readonly string[], context: ExecutionContext, clientId?: number) {
      return core.withTenant(tenantId, async (trx) => {
        const queued = await citationsStore.markPending(trx, [...new Set(citationIds.map((id) => id.toLowerCase()))], clientId);
        await enqueueVerification(trx, tenantId, queued, context);
        const found = new Set(queued);
        return { queued, not_found: citationIds.filter((id) => !found.has(id.toLowerCase())) };
      });
    },

    /** The job: verifies the named citations that are still pending. */
    async runVerification(job: VerifyJob): Promise<number> {
      return verifying(job.tenant_id, async (trx, verified) => {
        const rows = (await citationsStore.lockMany(trx, job.citation_ids)).filter((row) => row.verification_status === 'pending');
        return (await verifyRows(trx, rows, job.context, verified)).length;
      });
    },

    async recordShown(tenantId: string, context: ExecutionContext, chunks: readonly ChunkRef[], functionName = 'api'): Promise<void> {
      if (!checksProvenance(context) || chunks.length === 0) return;
      const unique = new Map(chunks.map((c) => [c.chunk_id.toLowerCase(), { chunk_id: c.chunk_id.toLowerCase(), revision_id: String(c.revision_id) }]));
      await core.withTenant(tenantId, (trx) => provenanceStore.record(trx, tenantId, context, [...unique.values()], functionName));
    },

    /** One citation; of one client only when clientId is given (another client's is not found, as an unknown id). */
    async get(tenantId: string, id: string, clientId?: number): Promise<Citation> {
      const row = await core.withTenant(tenantId, (trx) => citationsStore.get(trx, id));
      if (!row || (clientId !== undefined && row.client_id !== clientId)) throw notFound(`Citation not found: ${id}`, 'CITATION_NOT_FOUND');
      return citationView(row);
    },

    async find(tenantId: string, id: string): Promise<CitationRecord | null> {
      const row = await core.withTenant(tenantId, (trx) => citationsStore.get(trx, id));
      return row ? citationRecord(row) : null;
    },

    async list(tenantId: string, filter: CitationFilter, skip: number, limit: number) {
      return core.withTenant(tenantId, async (trx) => {
        const [rows, total] = await Promise.all([citationsStore.list(trx, filter, skip, limit), citationsStore.count(trx, filter)]);
        return { items: rows.map(citationView), total, skip, limit };
      });
    },

    /** Keyset page of the list (newest first) for GraphQL, in either direction: `seq` of each row is its cursor. */
    async page(tenantId: string, filter: CitationFilter, page: { direction: 'forward' | 'backward'; seq: number | undefined; limit: number }) {
      const rows = await core.withTenant(tenantId, (trx) => citationsStore.page(trx, filter, page));
      return rows.map((row) => ({ ...citationRecord(row), seq: Number(row.seq) }));
    },

    count: (tenantId: string, filter: CitationFilter): Promise<number> =>
      core.withTenant(tenantId, (trx) => citationsStore.count(trx, filter)),

    assignMessage: (trx: TenantTransaction, citationIds: readonly string[], messageId: number): Promise<void> =>
      citationsStore.assignMessage(trx, citationIds, messageId),

    /** The citations of each message, in creation order (of one client only, when clientId is given). */
    async ofMessages(tenantId: string, messageIds: readonly number[], clientId?: number): Promise<Map<number, CitationRecord[]>> {
      const rows = await core.withTenant(tenantId, (trx) => citationsStore.ofMessages(trx, [...new Set(messageIds)], clientId));
      const byMessage = new Map<number, CitationRecord[]>(messageIds.map((id) => [id, []]));
      for (const row of rows) byMessage.get(Number(row.message_id))?.push(citationRecord(row));
      return byMessage;
    },

    async stats(tenantId: string, filter: CitationFilter = {}): Promise<CitationStats> {
      const counts = await core.withTenant(tenantId, (trx) => citationsStore.countByStatus(trx, filter));
      const stats = Object.fromEntries(STATUSES.map((status) => [status, counts.get(status) ?? 0])) as CitationStats;
      stats.total = STATUSES.reduce((sum, status) => sum + stats[status], 0);
      return stats;
    },

    /**
     * The chat citation status for an API key of `clientId` in the
     * tenant: the newest citation of the chunk at the revision made in chat
     * session `sessionId`. A citation recorded for another client is not
     * this key's: found false, as for anything unknown.
     */
    async chatStatus(tenantId: string, clientId: number, sessionId: string, chunkId: string, revisionId: string) {
      const row = await core.withTenant(tenantId, (trx) =>
        citationsStore.latestInContext(trx, { type: 'chat_session', id: sessionId }, chunkId.toLowerCase(), revisionId));
      return chatStatusView(row && (row.client_id === null || row.client_id === clientId) ? row : undefined);
    },

    /** The chat status for an end user (an embed token): only in a session it owns, else `found: false`. */
    async chatStatusOfOwner(tenantId: string, clientId: number, ownerKey: string, sessionId: string, chunkId: string, revisionId: string) {
      if (await deps.owners.ownerKey(tenantId, 'chat_session', sessionId) !== ownerKey) return chatStatusView(undefined);
      const row = await core.withTenant(tenantId, (trx) =>
        citationsStore.latestInContext(trx, { type: 'chat_session', id: sessionId }, chunkId.toLowerCase(), revisionId));
      return chatStatusView(row && (row.client_id === null || row.client_id === clientId) ? row : undefined);
    },

    /** Chunks and documents for GraphQL's DataLoaders, in one transaction per batch. */
    chunks: (tenantId: string, ids: readonly string[]): Promise<Map<string, ChunkRecord>> =>
      core.withTenant(tenantId, (trx) => chunksById(trx, ids)),
    documents: (tenantId: string, ids: readonly string[]): Promise<(DocumentSummary | undefined)[]> =>
      core.withTenant(tenantId, async (trx) => {
        // One transaction runs one query at a time: read each distinct document once, in turn.
        const byId = new Map<string, DocumentSummary | undefined>();
        for (const id of ids) if (!byId.has(id)) byId.set(id, await deps.ingestion().getDocument(trx, id));
        return ids.map((id) => byId.get(id));
      }),
  };

  async function enqueueVerification(trx: TenantTransaction, tenantId: string, ids: readonly string[], context: ExecutionContext) {
    for (let i = 0; i < ids.length; i += VERIFY_BATCH) {
      const job: VerifyJob = { tenant_id: tenantId, citation_ids: ids.slice(i, i + VERIFY_BATCH), context: { type: context.type, id: context.id } };
      await core.jobs.enqueue(VERIFY_TASK, job as never, { trx });
    }
  }
}

function resolvedEntry(entry: CitationEntry, row: CitationRow): ResolvedEntry {
  const { match_type: _claimed, ...rest } = entry;
  return {
    ...rest,
    citation_id: row.id,
    verification_status: row.verification_status,
    match_type: row.match_type,
    match_score: row.match_score,
  };
}

export type CitationsService = ReturnType<typeof createCitationsService>;
