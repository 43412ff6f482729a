// What the citations plugin offers other plugins: its api (the `citations`
// dependency; the chat plugin resolves and verifies every entry of a reply's
// <citations> block through resolveReply) and the extension point
// `citations.context-owners`, through which the plugin owning an execution
// context type tells who owns a context of it (chat: a session's owner).
import type { TenantTransaction } from 'agent-platform/sdk';

export type VerificationStatus = 'verified' | 'failed' | 'pending' | 'unverified' | 'out_of_provenance';
export type MatchType = 'exact' | 'normalized' | 'fuzzy' | 'not_found';

/** Who made a citation: `chat_session`, `workflow_execution` or `function_call`, and its id. */
export interface ExecutionContext {
  type: string;
  id: string;
  /** The client the context acts for (a chat session's client); the chat citation status endpoint answers only its API keys. */
  client_id?: number;
}

/** A chunk shown to a context (what the provenance check compares a citation with). */
export interface ChunkRef {
  chunk_id: string;
  revision_id: string;
}

/** The citation record (plus what the REST API shows of it). */
export interface Citation {
  id: string;
  chunk_id: string;
  revision_id: string;
  document_id: string | null;
  collection_id: number | null;
  document_name: string;
  tenant_id: string;
  execution_context_type: string;
  execution_context_id: string;
  quoted_text: string | null;
  page: number | null;
  section: string | null;
  verification_status: VerificationStatus;
  match_type: MatchType | null;
  match_score: number | null;
  matched_span_start: number | null;
  matched_span_end: number | null;
  verified_at: string | null;
  created_at: string;
  /** The client the citing context acted for, when known. */
  client_id: number | null;
  /** The context that last verified it (resolve_citation's caller, or verify_citation's). */
  verified_by_context_type: string | null;
  verified_by_context_id: string | null;
}

/** A citation with the message it was made in (GraphQL; the api's ofMessages). */
export interface CitationRecord extends Citation {
  /** The message the citation was made in (a chat answer: chat_messages.id), when known. */
  message_id: number | null;
}

/** One entry of a <citations> block. */
export interface CitationEntry {
  ref: string;
  chunk_id: string;
  revision_id: string;
  doc_name: string;
  page?: number;
  section?: string;
  quote?: string;
  match_type?: MatchType;
}

export interface ParsedBlock {
  entries: CitationEntry[];
  /** Entries that could not be read, each with why (a missing required field, bad XML). */
  errors: { index: number; message: string }[];
  /** Where the block starts and ends in the text (to strip or replace it); null when there is none. */
  span: { start: number; end: number } | null;
}

export interface ResolvedEntry extends Omit<CitationEntry, 'match_type'> {
  citation_id: string;
  verification_status: VerificationStatus;
  /** Null when there was no quote to match, or while the citation is `pending` (bulk path). */
  match_type: MatchType | null;
  match_score: number | null;
}

/** What writeBlock takes: parsed entries, or resolved ones (their match_type may be null). */
export type WritableEntry = Omit<CitationEntry, 'match_type'> & { match_type?: MatchType | null };

export interface CitationsApi {
  /** Reads the <citations> block of a reply; never throws on malformed input. */
  parseBlock(text: string): ParsedBlock;
  /** Writes a <citations> block for these entries (attributes escaped). */
  writeBlock(entries: readonly WritableEntry[]): string;
  /**
   * Resolves and verifies every entry of the reply's <citations> block in the
   * tenant, as made by `context` (provenance is checked against that context),
   * and returns the entries with their citation ids and match types filled in.
   * A block with more entries than the plugin's `inlineVerifyLimit` (default
   * 20) takes the bulk path: its citations are created `pending` and a job
   * verifies them (citationVerified is pushed as each completes).
   */
  resolveReply(tenantId: string, replyText: string, context: ExecutionContext): Promise<{ entries: ResolvedEntry[]; errors: ParsedBlock['errors'] }>;
  /**
   * Records that these chunks were shown to the context, for callers that show
   * chunks without going through a platform function (e.g. a responder that
   * searches with the ingestion API directly). Calls through
   * core.functions.call are recorded automatically.
   */
  recordShown(tenantId: string, context: ExecutionContext, chunks: readonly ChunkRef[]): Promise<void>;
  /** resolve_citation for plugins: one citation of a chunk, verified when a quote is given. */
  resolve(tenantId: string, input: { chunk_id: string; quoted_text?: string }, context: ExecutionContext): Promise<Citation>;
  /** verify_citation for plugins. */
  verify(tenantId: string, citationId: string, context: ExecutionContext): Promise<Citation>;
  /**
   * Records the message these citations were made in (chat: the stored answer
   * whose <citations> block resolveReply resolved), in the caller's transaction.
   */
  assignMessage(trx: TenantTransaction, citationIds: readonly string[], messageId: number): Promise<void>;
  /**
   * The citations made in each of these messages, in creation order; of one
   * client only when `clientId` is given (what an API key of the client may see).
   */
  ofMessages(tenantId: string, messageIds: readonly number[], clientId?: number): Promise<Map<number, CitationRecord[]>>;
}

/** Who owns the contexts of one type (`chat_session`): the chat citation status answers an end user only in a context it owns. */
export interface ContextOwnerResolver {
  /** The execution context type it answers for. */
  type: string;
  /** The owner key of the tenant's context `id` (kind, issuer, subject, and an API key's visitor), null when there is none. */
  ownerKey(tenantId: string, id: string): Promise<string | null>;
}

declare module '@hapi/hapi' {
  interface PluginProperties {
    citations: { api: CitationsApi };
  }
}

declare module 'agent-platform/sdk' {
  interface ExtensionPoints {
    /** Who owns the contexts of one type; a type contributed twice stops the boot. */
    'citations.context-owners': ContextOwnerResolver;
  }
}
