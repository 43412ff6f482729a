// GraphQL for chat: `chatSession(id)`, `chatSessions(filter, first, after,
// last, before)` and a session's `messages` (Relay connections both ways,
// with totalCount). With the citations plugin loaded, a message's
// `citations` (those its answer made) and a citation's `message`.
//
// Access as in REST (GET /api/sessions, /api/sessions/{id},
// /api/sessions/{id}/messages): a bearer member of the tenant or an API key
// (which names its visitor in X-Visitor-Id, as REST requires), and each sees
// only its own sessions (services/reads.ts): another owner's or client's
// session, or another tenant's, is null. Embed tokens get FORBIDDEN, as on
// every GraphQL field. A session's `client` is the tenancy plugin's (GET
// /api/admin/clients/{id}: members only): an API key gets FORBIDDEN on it.
// A message's citations are those an API key of the session's client may see.
//
// Tenant admins also read every session of the tenant, whoever owns it
// (`tenantChatSession`, `tenantChatSessions`: GET /api/admin/chat/sessions…,
// services/conversations.ts), with its owner; a message's `feedback` is read
// by whoever may read the message (REST's messages carry it too), batched per
// request with a DataLoader.
import DataLoader from 'dataloader';
import type { Request } from '@hapi/hapi';
import {
  badInput, type ConnectionArgs, type GraphqlContext, isUuid, keysetConnection, requireAdmin, requireMember, requireMemberOrApiKey, type TenantScope,
} from 'agent-platform/sdk';
import type { CitationRecord, CitationsApi } from '../citations/api.ts';
import { actorOf, type Actor, VISITOR_HEADER } from './sessions/caller.ts';
import type { ConversationFilter, ConversationRow, Conversations, FeedbackRow } from './services/conversations.ts';
import type { ChatReads, ListedSession, MessageRow, SessionMessage, SessionRow } from './services/reads.ts';

const SESSION_TYPES = /* GraphQL */ `
  "Who wrote a chat message."
  enum ChatMessageRole {
    USER
    ASSISTANT
  }

  "A conversation of one owner on one client (GET /api/sessions/{id})."
  type ChatSession {
    id: ID!
    title: String!
    "False once the session ended (idle too long); it is still read by id."
    isActive: Boolean!
    createdAt: DateTime!
    "When the session last had a question or an answer."
    lastActiveAt: DateTime!
    "The client the session acts for (see client)."
    clientId: ID!
    "The client the session acts for (GET /api/admin/clients/{id}: members only)."
    client: Client
    "The agent the session names; null: the client's default agent at each turn."
    agentName: String
    "The session's messages, oldest first (GET /api/sessions/{id}/messages)."
    messages(first: Int, after: String, last: Int, before: String): ChatMessageConnection!
    "The owner's bare subject (tenant admins only: GET /api/admin/chat/sessions; ROLE_REQUIRED for others)."
    ownerSub: String
    "Who owns the session: kind, issuer and subject (tenant admins only, as ownerSub)."
    ownerKey: String
  }

  "One session of the tenant's list, with its cursor."
  type TenantChatSessionEdge {
    node: ChatSession!
    cursor: String!
  }

  "A page of the tenant's sessions of every owner and client (Relay), most recent activity first."
  type TenantChatSessionConnection {
    edges: [TenantChatSessionEdge!]!
    pageInfo: PageInfo!
    "The sessions the filter selects, in every page."
    totalCount: Int!
  }

  "Which of the tenant's sessions to list (GET /api/admin/chat/sessions). Active and ended sessions; deleted ones are gone."
  input TenantChatSessionFilter {
    "Only the sessions of this owner (its bare subject: REST's user)."
    ownerSub: String
    "Only the sessions of this owner key (REST's owner_key)."
    ownerKey: String
    "Only the sessions acting for this client."
    clientId: ID
    "Only sessions with activity at or after this time (REST's from)."
    activeAfter: DateTime
    "Only sessions started before this time (REST's to)."
    createdBefore: DateTime
    "True: only sessions with feedback on an answer; false: only those without."
    hasFeedback: Boolean
    "Only sessions with at least one feedback of this rating (-1 to 5)."
    rating: Int
  }

  "The rating given on an answer (POST /api/chat/{id}/feedback); a second rating replaces the first."
  type ChatFeedback {
    "-1/1 (thumbs) or 1-5 (stars); 0 clears a thumb."
    rating: Int!
    "What the person wrote with the rating (may be empty)."
    comment: String!
    createdAt: DateTime!
    updatedAt: DateTime
  }

  "One session of a page, with its cursor."
  type ChatSessionEdge {
    node: ChatSession!
    cursor: String!
  }

  "A page of the caller's sessions (Relay), most recent activity first."
  type ChatSessionConnection {
    edges: [ChatSessionEdge!]!
    pageInfo: PageInfo!
    "The caller's active sessions on the client, in every page."
    totalCount: Int!
  }

  "Which of the caller's sessions to list (GET /api/sessions)."
  input ChatSessionFilter {
    "The client the sessions act for (REST's selected_client). Default: an API key's own client, else the tenant's default client."
    clientId: ID
  }

  "A question or an answer of a chat session."
  type ChatMessage {
    id: ID!
    role: ChatMessageRole!
    "The text; an answer's ends with its <citations> block when it cites."
    content: String!
    createdAt: DateTime!
    "The session the message belongs to (see session)."
    sessionId: ID!
    session: ChatSession!
    "The feedback given on this answer; null when there is none (and for a question)."
    feedback: ChatFeedback
  }

  "One message of a page, with its cursor."
  type ChatMessageEdge {
    node: ChatMessage!
    cursor: String!
  }

  "A page of a session's messages (Relay), oldest first."
  type ChatMessageConnection {
    edges: [ChatMessageEdge!]!
    pageInfo: PageInfo!
    "The session's messages, in every page."
    totalCount: Int!
  }

  extend type Query {
    "One of the caller's chat sessions; null when it is not found or not the caller's."
    chatSession(id: ID!): ChatSession
    "The caller's active chat sessions on one client, most recent activity first."
    chatSessions(filter: ChatSessionFilter, first: Int, after: String, last: Int, before: String): ChatSessionConnection!
    "One session of the tenant, whoever owns it (tenant admins: GET /api/admin/chat/sessions/{id}); null when not found."
    tenantChatSession(id: ID!): ChatSession
    "The tenant's sessions of every owner and client, most recent activity first (tenant admins: GET /api/admin/chat/sessions)."
    tenantChatSessions(filter: TenantChatSessionFilter, first: Int, after: String, last: Int, before: String): TenantChatSessionConnection!
  }
`;

const CITATION_TYPES = /* GraphQL */ `
  extend type ChatMessage {
    "The citations this answer made (its <citations> block, resolved and verified), in order; empty for a question."
    citations: [Citation!]!
  }

  extend type Citation {
    "The chat message the citation was made in (see message); null when it was not made by a chat answer, or before messages were recorded."
    messageId: ID
    "The chat answer the citation was made in; null when there is none or it is not the caller's (GET /api/sessions/{id}/messages)."
    message: ChatMessage
  }
`;

type WithSession = MessageRow & { session?: SessionRow };

interface Loaders {
  messages: DataLoader<number, SessionMessage | undefined>;
  citations: DataLoader<number, CitationRecord[]>;
  feedback: DataLoader<number, FeedbackRow | undefined>;
}

interface TenantSessionFilter {
  ownerSub?: string | null; ownerKey?: string | null; clientId?: string | null; activeAfter?: Date | null; createdBefore?: Date | null;
  hasFeedback?: boolean | null; rating?: number | null;
}

const validDate = (value: Date | null | undefined, name: string) => {
  if (value === null || value === undefined) return undefined;
  if (Number.isNaN(value.getTime())) throw badInput(`${name} is not a valid date and time`);
  return value;
};

/** The admin list's filter as REST's (the same checks: no NUL bytes, lengths, a rating from -1 to 5). */
function tenantFilterOf(filter: TenantSessionFilter | null | undefined): ConversationFilter {
  const text = (value: string | null | undefined, name: string, max: number) => {
    if (value === null || value === undefined) return undefined;
    if (value === '' || value.length > max || value.includes('\0')) throw badInput(`${name} must be 1-${max} characters without NUL`);
    return value;
  };
  const rating = filter?.rating ?? undefined;
  if (rating !== undefined && (rating < -1 || rating > 5)) throw badInput('rating is between -1 and 5');
  return {
    user: text(filter?.ownerSub, 'ownerSub', 500), ownerKey: text(filter?.ownerKey, 'ownerKey', 600), clientId: selectedClient(filter?.clientId),
    from: validDate(filter?.activeAfter, 'activeAfter'), to: validDate(filter?.createdBefore, 'createdBefore'),
    hasFeedback: filter?.hasFeedback ?? undefined, rating,
  };
}

const isMessageKey = (key: unknown) => Number.isSafeInteger(key);
const isSessionKey = (key: unknown) => Array.isArray(key) && key.length === 2 && Number.isSafeInteger(key[0]) && isUuid(key[1]);

/** A request header, whether the context's request is hapi's (a record) or the Fetch API's (Headers). */
function headerOf(context: GraphqlContext, name: string): string | undefined {
  const headers = context.request.headers as unknown as Headers | Record<string, string | undefined>;
  return typeof headers.get === 'function' ? (headers as Headers).get(name) ?? undefined : (headers as Record<string, string | undefined>)[name];
}

/** REST's selected_client as a filter's clientId: a client id, else BAD_USER_INPUT. */
function selectedClient(clientId: string | null | undefined): number | undefined {
  if (clientId === null || clientId === undefined) return undefined;
  const id = /^[1-9][0-9]{0,15}$/.test(clientId) ? Number(clientId) : NaN;
  if (!Number.isSafeInteger(id)) throw badInput('clientId is not a valid client id');
  return id;
}

export function chatGraphql(reads: ChatReads, conversations: Conversations, citations: CitationsApi | undefined) {
  /** The guard of the sessions routes, and the actor REST would see (an API key's visitor from X-Visitor-Id). */
  function caller(context: GraphqlContext): { scope: TenantScope; actor: Actor } {
    const scope = requireMemberOrApiKey(context);
    return { scope, actor: actorOf(context.principal!, headerOf(context, VISITOR_HEADER)) };
  }

  // One set of loaders per request: a page of citations reads its messages, a page of messages its citations, in one query.
  const perRequest = new WeakMap<Request, Loaders>();
  function loaders(context: GraphqlContext, tenantId: string, actor: Actor, scope: TenantScope): Loaders {
    let found = perRequest.get(context.request);
    if (!found) {
      found = {
        messages: new DataLoader(async (ids: readonly number[]) => {
          const byId = await reads.messagesOf(tenantId, actor, ids);
          return ids.map((id) => byId.get(id));
        }),
        citations: new DataLoader(async (ids: readonly number[]) => {
          const byMessage = await citations!.ofMessages(tenantId, ids, scope.clientId);
          return ids.map((id) => byMessage.get(id) ?? []);
        }),
        feedback: new DataLoader(async (ids: readonly number[]) => {
          const byMessage = await conversations.feedbackOf(tenantId, ids);
          return ids.map((id) => byMessage.get(id));
        }),
      };
      perRequest.set(context.request, found);
    }
    return found;
  }

  const resolvers: Record<string, Record<string, unknown>> = {
    Query: {
      chatSession(_: unknown, args: { id: string }, context: GraphqlContext) {
        const { scope, actor } = caller(context);
        return reads.session(scope.tenantId, actor, args.id);
      },
      async chatSessions(_: unknown, args: ConnectionArgs & { filter?: { clientId?: string | null } | null }, context: GraphqlContext) {
        const { scope, actor } = caller(context);
        const who = await reads.caller(scope.tenantId, actor, selectedClient(args.filter?.clientId));
        return keysetConnection(args, {
          keyOf: (row: ListedSession) => [Number(row.active_key), row.id] as [number, string],
          validKey: isSessionKey,
          fetch: (page) => reads.sessions(who, { direction: page.direction, key: page.cursor, limit: page.limit }),
          count: () => reads.sessionCount(who),
        });
      },
      tenantChatSession(_: unknown, args: { id: string }, context: GraphqlContext) {
        return conversations.session(requireAdmin(context), args.id);
      },
      tenantChatSessions(_: unknown, args: ConnectionArgs & { filter?: TenantSessionFilter | null }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        const filter = tenantFilterOf(args.filter);
        return keysetConnection(args, {
          keyOf: (row: ConversationRow) => [Number(row.active_key), row.id] as [number, string],
          validKey: isSessionKey,
          fetch: (page) => conversations.page(tenantId, filter, { direction: page.direction, key: page.cursor, limit: page.limit }),
          count: () => conversations.count(tenantId, filter),
        });
      },
    },
    ChatSession: {
      isActive: (s: SessionRow) => s.is_active,
      createdAt: (s: SessionRow) => s.created_at,
      lastActiveAt: (s: SessionRow) => s.last_active,
      clientId: (s: SessionRow) => s.client_id,
      agentName: (s: SessionRow) => s.agent_name,
      ownerSub: (s: SessionRow, _: unknown, context: GraphqlContext) => (requireAdmin(context), s.owner_sub),
      ownerKey: (s: SessionRow, _: unknown, context: GraphqlContext) => (requireAdmin(context), s.owner_key),
      async client(s: SessionRow, _: unknown, context: GraphqlContext) {
        return (await reads.client(requireMember(context), s.client_id)) ?? null;
      },
      async messages(s: SessionRow, args: ConnectionArgs, context: GraphqlContext) {
        // The session was read through chatSession(s), a message or (admins) tenantChatSession(s): already readable by the caller.
        const { scope } = caller(context);
        const connection = await keysetConnection(args, {
          keyOf: (row: MessageRow) => Number(row.id),
          validKey: isMessageKey,
          fetch: (page) => reads.messages(scope.tenantId, s.id, { direction: page.direction, key: page.cursor, limit: page.limit }),
          count: () => reads.messageCount(scope.tenantId, s.id),
        });
        return { ...connection, edges: connection.edges.map((edge) => ({ ...edge, node: { ...edge.node, session: s } })) };
      },
    },
    ChatMessage: {
      role: (m: MessageRow) => m.role.toUpperCase(),
      createdAt: (m: MessageRow) => m.created_at,
      sessionId: (m: MessageRow) => m.session_id,
      session: (m: WithSession) => m.session,
      // The message was reached through a session the caller may read (its own, or any of the tenant's for an admin).
      async feedback(m: MessageRow, _: unknown, context: GraphqlContext) {
        if (m.role !== 'assistant') return null;
        const { scope, actor } = caller(context);
        const row = await loaders(context, scope.tenantId, actor, scope).feedback.load(Number(m.id));
        return row ? { rating: row.rating, comment: row.comment, createdAt: row.created_at, updatedAt: row.updated_at } : null;
      },
    },
  };
  if (!citations) return { typeDefs: SESSION_TYPES, resolvers };

  resolvers.ChatMessage.citations = (m: MessageRow, _: unknown, context: GraphqlContext) => {
    const { scope, actor } = caller(context);
    return m.role === 'assistant' ? loaders(context, scope.tenantId, actor, scope).citations.load(Number(m.id)) : [];
  };
  resolvers.Citation = {
    // A citation made in this request's own resolve (a function's result) may come without it: none yet.
    messageId: (c: Partial<CitationRecord>) => c.message_id ?? null,
    async message(c: CitationRecord, _: unknown, context: GraphqlContext) {
      if (c.message_id === null || c.message_id === undefined) return null;
      const { scope, actor } = caller(context);
      // A citation pushed to a subscription belongs to the request's tenant; any other is not this caller's.
      if (c.tenant_id !== scope.tenantId) return null;
      return (await loaders(context, scope.tenantId, actor, scope).messages.load(Number(c.message_id))) ?? null;
    },
  };
  return { typeDefs: SESSION_TYPES + CITATION_TYPES, resolvers };
}
