// Provenance: which chunks each execution context was shown. An observer of
// every successful platform-function call walks the result for objects that
// carry both `chunk_id` and `revision_id` (search_documents' results,
// read_document's chunks, or any other function that shows chunks) and
// records them for the caller's context. A citation of a chunk its context
// was never shown is `out_of_provenance`: a model citing what it never read.
//
// Who is checked: `chat_session` and `workflow_execution` contexts, where a
// model or a workflow acts on what it was shown. A direct call through the
// API (`function_call`) is an operator's request, with an id of its own for
// each request: nothing can have been shown to it before, so its reads are
// not recorded and its citations are verified on the quote alone.
import { type CompletedCall, isUuid } from 'agent-platform/sdk';
import type { ChunkRef, ExecutionContext } from '../api.ts';

/** Walking limits: a huge or deeply nested result costs bounded time, and records at most MAX_REFS chunks. */
export const WALK_LIMITS = { depth: 8, nodes: 20_000, refs: 1_000 } as const;

/** The functions whose results carry chunk references without showing chunk text (our own). */
export const NOT_SHOWING = new Set(['resolve_citation', 'verify_citation']);

export function checksProvenance(context: Pick<ExecutionContext, 'type'> | undefined): boolean {
  return context !== undefined && context.type !== 'function_call';
}

/** Every distinct {chunk_id, revision_id} in a function's result (breadth-first, bounded). */
export function chunkRefsIn(result: unknown): ChunkRef[] {
  const found = new Map<string, ChunkRef>();
  let queue: unknown[] = [result];
  let nodes = 0;
  for (let depth = 0; depth <= WALK_LIMITS.depth && queue.length > 0; depth += 1) {
    const next: unknown[] = [];
    for (const value of queue) {
      if (++nodes > WALK_LIMITS.nodes) return [...found.values()];
      if (value === null || typeof value !== 'object') continue;
      if (Array.isArray(value)) {
        next.push(...value.slice(0, WALK_LIMITS.nodes));
        continue;
      }
      const record = value as Record<string, unknown>;
      const chunkId = record.chunk_id;
      const revisionId = record.revision_id;
      if (typeof chunkId === 'string' && isUuid(chunkId) && (typeof revisionId === 'string' || typeof revisionId === 'number')) {
        const key = chunkId.toLowerCase();
        if (!found.has(key)) found.set(key, { chunk_id: key, revision_id: String(revisionId) });
        if (found.size >= WALK_LIMITS.refs) return [...found.values()];
      }
      for (const child of Object.values(record)) if (child !== null && typeof child === 'object') next.push(child);
    }
    queue = next;
  }
  return [...found.values()];
}

/** The observer's decision: the refs to record for this call, or none. */
export function refsToRecord(call: Pick<CompletedCall, 'name' | 'result' | 'context'>): ChunkRef[] {
  if (NOT_SHOWING.has(call.name) || !checksProvenance(call.context.executionContext)) return [];
  return chunkRefsIn(call.result);
}
