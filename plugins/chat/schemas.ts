// joi schemas of the chat plugin's routes (requests in, responses out).
import Joi from 'joi';
import { CAPABILITY_KEYS } from './turn/capabilities.ts';

const timestamp = Joi.string().description('UTC, without a zone suffix (read as UTC), for every caller');
const nullableTimestamp = timestamp.allow(null);

export const agentName = Joi.string().pattern(/^[a-z0-9][a-z0-9_-]{0,63}$/)
  .description('lowercase letters, digits, _ and -; up to 64 characters');

const modelSettings = Joi.object({
  name: Joi.string().max(200).description('model id sent to the provider (overrides LLM_MODEL)'),
  temperature: Joi.number().min(0).max(2),
  top_p: Joi.number().min(0).max(1),
  max_output_tokens: Joi.number().integer().min(1).max(1_000_000),
}).label('AgentModelSettings');

const agentFields = {
  description: Joi.string().allow('').max(2000),
  instructions: Joi.string().allow('').max(100_000).description('the system prompt of the agent'),
  model: modelSettings,
  functions: Joi.array().items(Joi.string().pattern(/^[a-z][a-z0-9_]{0,127}$/)).max(200).unique()
    .description('platform and imported functions the agent may call (e.g. ask_user, search_documents, read_document, resolve_citation)'),
  max_iterations: Joi.number().integer().min(1).max(100).description('model calls per question (default 10)'),
  token_budget: Joi.number().integer().min(1).max(100_000_000).description('prompt + completion tokens per question (default 100000)'),
  emit_iteration_events: Joi.boolean().description('emit agent.loop.iteration after each reasoning cycle'),
};

export const createAgent = Joi.object({ name: agentName.required(), ...agentFields }).label('AgentCreate');
export const updateAgent = Joi.object({ name: agentName, ...agentFields }).min(1).label('AgentUpdate');

export const agent = Joi.object({
  name: Joi.string(), description: Joi.string().allow(''), instructions: Joi.string().allow(''), model: Joi.object().unknown(),
  functions: Joi.array().items(Joi.string()), max_iterations: Joi.number(), token_budget: Joi.number(),
  emit_iteration_events: Joi.boolean(), version: Joi.number(), created_at: Joi.date(), updated_at: Joi.date(),
}).label('Agent');

export const agentList = Joi.object({
  items: Joi.array().items(agent), total: Joi.number(), skip: Joi.number(), limit: Joi.number(),
}).label('AgentList');

export const paging = Joi.object({
  skip: Joi.number().integer().min(0).default(0),
  limit: Joi.number().integer().min(1).max(500).default(100),
});

export const nameParams = Joi.object({ name: agentName.required() });
export const clientParams = Joi.object({ client_id: Joi.number().integer().min(1).required() });
export const clientAgentBody = Joi.object({ agent_name: agentName.required() }).label('ClientAgentSet');
export const clientAgent = Joi.object({
  client_id: Joi.number(), agent_name: Joi.string().allow(null), builtin: Joi.boolean(), updated_at: Joi.date().allow(null),
}).label('ClientAgent');

/** `selected_client`: a client key (string) or, legacy, a numeric client id. */
const selectedClient = Joi.alternatives(Joi.number().integer().min(1), Joi.string().pattern(/^[A-Za-z0-9_-]{3,100}$/))
  .description('client key (e.g. ck_…) or numeric client id; absent: the API key\'s client, else the tenant\'s oldest client');

export const clientQuery = Joi.object({ selected_client: selectedClient });
export const sessionListQuery = Joi.object({
  selected_client: selectedClient,
  skip: Joi.number().integer().min(0).default(0),
  limit: Joi.number().integer().min(1).max(200).default(50),
});
export const messagesQuery = Joi.object({
  selected_client: selectedClient,
  after: Joi.number().integer().min(0).default(0).description('only messages with a larger id (the next page: next_after)'),
  limit: Joi.number().integer().min(1).max(500).default(200),
});
export const streamQuery = Joi.object({
  selected_client: selectedClient,
  after: Joi.number().integer().min(0).default(0).description('replay the frames with a larger seq, then follow'),
  turn_id: Joi.string().guid().description('a turn of the session (default: its latest)'),
});

export const cancelQuery = Joi.object({
  selected_client: selectedClient,
  turn_id: Joi.string().guid().description('the turn the client means to stop (from its `turn` frame): when another turn runs by now, nothing is stopped'),
});

export const sessionParams = Joi.object({ session_id: Joi.string().guid().required() });

export const createSession = Joi.object({
  title: Joi.string().allow('').max(200),
  agent_name: agentName.description('the agent of this conversation (default: the client\'s default agent)'),
}).allow(null).default({}).label('SessionCreate');
export const renameSession = Joi.object({ title: Joi.string().allow('').max(200).required() }).label('SessionRename');

export const session = Joi.object({
  id: Joi.string(), title: Joi.string().allow(''), is_active: Joi.boolean(), last_active: timestamp, created_at: timestamp,
  client_id: Joi.number(), agent_name: Joi.string().allow(null),
}).label('Session');
export const sessionList = Joi.object({
  items: Joi.array().items(session), total: Joi.number(), skip: Joi.number(), limit: Joi.number(),
}).label('SessionList');

export const message = Joi.object({
  id: Joi.number().integer(), role: Joi.string(), content: Joi.string().allow(''), tool_metadata: Joi.object().unknown(),
  turn_id: Joi.string().allow(null), created_at: timestamp,
  feedback: Joi.object({ rating: Joi.number(), comment: Joi.string().allow('') }).allow(null),
}).label('Message');
export const messageList = Joi.object({
  items: Joi.array().items(message), next_after: Joi.number().allow(null), limit: Joi.number(),
}).label('MessageList');

export const chatBody = Joi.object({
  content: Joi.string().min(1).max(100_000).required(),
  capability_keys: Joi.array().items(Joi.string().valid(...CAPABILITY_KEYS)).max(6)
    .description(`what the surface can show: ${CAPABILITY_KEYS.join(', ')}`),
}).label('ChatRequest');

export const humanInputBody = Joi.object({
  tool_call_id: Joi.string().min(1).max(200).required(),
  answer: Joi.string().allow('').max(100_000).required(),
}).label('HumanInput');

export const cancelResult = Joi.object({
  status: Joi.string().valid('stopped', 'cancelling', 'no_active_turn'),
  session_id: Joi.string(),
  turn_id: Joi.string().allow(null),
}).label('CancelResult');

export const feedbackBody = Joi.object({
  message_id: Joi.number().integer().min(1).required(),
  rating: Joi.number().integer().min(-1).max(5).required().description('-1/1 (thumbs) or 1–5 (stars); 0 clears a thumb'),
  comment: Joi.string().allow('').max(5000),
}).label('Feedback');
export const feedbackResult = Joi.object({
  created: Joi.boolean(),
  feedback: Joi.object({
    message_id: Joi.number(), session_id: Joi.string(), rating: Joi.number(), comment: Joi.string().allow(''),
    created_at: timestamp, updated_at: nullableTimestamp,
  }),
}).label('FeedbackResult');

// The operators' reads (/api/admin/chat/...): every session of the tenant.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** An ISO 8601 date or time, as a Date; a time without a zone is UTC (as the plugin writes its timestamps). */
const instant = Joi.string().pattern(ISO_INSTANT).custom((value: string, helpers) => {
  const zoned = value.includes('T') && !/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? `${value}Z` : value;
  const date = new Date(zoned);
  return Number.isNaN(date.getTime()) ? helpers.error('any.invalid') : date;
});
export const conversationQuery = Joi.object({
  user: Joi.string().min(1).max(500).pattern(/^[^\0]+$/).description('only the sessions of this owner (its bare subject: a user\'s sub)'),
  owner_key: Joi.string().min(1).max(600).pattern(/^[^\0]+$/).description('only the sessions of this owner key (e.g. user:platform:alice, api-key:7:visitor:v-1234567)'),
  client_id: Joi.number().integer().min(1).description('only the sessions acting for this client'),
  from: instant.description('only sessions with activity at or after this time (last_active ≥ from); ISO 8601, UTC without a zone suffix'),
  to: instant.description('only sessions started before this time (created_at < to); ISO 8601, UTC without a zone suffix'),
  has_feedback: Joi.boolean().description('true: only sessions with feedback on an answer; false: only those without'),
  rating: Joi.number().integer().min(-1).max(5).description('only sessions with at least one feedback of this rating (-1: thumbs down)'),
  skip: Joi.number().integer().min(0).default(0),
  limit: Joi.number().integer().min(1).max(200).default(50),
}).label('ConversationQuery');

export const conversation = Joi.object({
  id: Joi.string(), title: Joi.string().allow(''), is_active: Joi.boolean(), last_active: timestamp, created_at: timestamp,
  client_id: Joi.number(), agent_name: Joi.string().allow(null),
  owner_sub: Joi.string().description('the owner\'s bare subject'),
  owner_key: Joi.string().description('who owns the session: kind, issuer and subject (an API key\'s visitor, an embed token\'s client and external user)'),
  message_count: Joi.number().integer(), feedback_count: Joi.number().integer(),
}).label('Conversation');
export const conversationList = Joi.object({
  items: Joi.array().items(conversation), total: Joi.number(), skip: Joi.number(), limit: Joi.number(),
}).label('ConversationList');

export const conversationMessagesQuery = Joi.object({
  after: Joi.number().integer().min(0).default(0).description('only messages with a larger id (the next page: next_after)'),
  limit: Joi.number().integer().min(1).max(500).default(200),
});
const givenFeedback = Joi.object({
  rating: Joi.number().integer(), comment: Joi.string().allow(''), created_at: timestamp, updated_at: nullableTimestamp,
}).allow(null).label('GivenFeedback');
export const conversationMessage = Joi.object({
  id: Joi.number().integer(), role: Joi.string(), content: Joi.string().allow(''), tool_metadata: Joi.object().unknown(),
  turn_id: Joi.string().allow(null), created_at: timestamp, feedback: givenFeedback,
}).label('ConversationMessage');
export const conversationMessageList = Joi.object({
  items: Joi.array().items(conversationMessage), next_after: Joi.number().allow(null), limit: Joi.number(),
}).label('ConversationMessageList');
