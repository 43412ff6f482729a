// The platform functions resolve_citation and verify_citation,
// callable by agents and workflow ACTION steps. The caller's execution
// context (chat session, workflow execution, direct function call) is what the
// citation records; a call without one is a direct call with an id of its own.
import { randomUUID } from 'node:crypto';
import type { FunctionCallContext, FunctionDefinition } from 'agent-platform/sdk';
import type { ExecutionContext } from './api.ts';
import { BLOCK_LIMITS } from './block/parse.ts';
import type { CitationsService } from './services/citations.ts';

export function callerContext(context: FunctionCallContext): ExecutionContext {
  const caller = context.executionContext ?? { type: 'function_call', id: randomUUID() };
  return { type: caller.type, id: caller.id, ...(context.clientId !== undefined ? { client_id: context.clientId } : {}) };
}

export function citationFunctions(service: CitationsService): Record<string, FunctionDefinition> {
  return {
    resolve_citation: {
      description: 'Cite a document chunk (by the chunk_id a search or read returned). With quoted_text, the quote is '
        + 'verified against the chunk text (exact, whitespace-normalized or fuzzy above 85%); returns the citation with its '
        + 'verification_status, match_type and source metadata (document_name, page, section).',
      parameters: {
        properties: {
          chunk_id: { type: 'string', format: 'uuid', description: 'The cited chunk' },
          quoted_text: { type: 'string', maxLength: BLOCK_LIMITS.quote, description: 'The passage quoted from the chunk; enables verification' },
        },
        required: ['chunk_id'],
        additionalProperties: false,
      },
      // Any member of the tenant (core/functions/access.ts): chat users cite what they were shown.
      roles: [],
      handler: (args, context) =>
        service.resolve(context.tenantId, { chunk_id: args.chunk_id, quoted_text: args.quoted_text }, callerContext(context)),
    },
    verify_citation: {
      description: 'Verify a citation again against its chunk as it is now; returns the updated citation '
        + '(a deleted chunk gives failed with match_type not_found).',
      parameters: {
        properties: { citation_id: { type: 'string', format: 'uuid', description: 'The citation to verify' } },
        required: ['citation_id'],
        additionalProperties: false,
      },
      roles: [],
      handler: (args, context) => service.verify(context.tenantId, String(args.citation_id).toLowerCase(), callerContext(context)),
    },
  };
}
