// The agent a turn runs: a stored definition, or the built-in assistant that
// a client without a default agent gets.
import type { AgentValues } from '../store/agents.ts';

export type ResolvedAgent = Omit<AgentValues, 'description' | 'name'> & {
  /** null: the built-in assistant. */
  name: string | null;
};

export const BUILTIN_AGENT: ResolvedAgent = {
  name: null,
  instructions: [
    'You are a helpful assistant of this organization.',
    'When a question may be answered from the organization\'s documents, search them with search_documents,',
    'read what you need with read_document, and cite the passages you rely on in a <citations> block',
    '(one <citation ref chunk_id revision_id doc_name page quote/> per source).',
    'If the question is ambiguous and you can ask the user, ask one short question with ask_user.',
  ].join(' '),
  model: {},
  functions: ['search_documents', 'read_document', 'resolve_citation', 'ask_user'],
  max_iterations: 10,
  token_budget: 100_000,
  emit_iteration_events: false,
};

export function resolvedFrom(row: Omit<ResolvedAgent, 'name'> & { name: string }): ResolvedAgent {
  return {
    name: row.name,
    instructions: row.instructions,
    model: row.model ?? {},
    functions: row.functions,
    max_iterations: row.max_iterations,
    token_budget: row.token_budget,
    emit_iteration_events: row.emit_iteration_events,
  };
}
