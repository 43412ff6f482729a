// The operators' reads of the tenant's conversations (/api/admin/chat/...):
// bearer, tenant admin. Every session of the tenant, whoever owns it, with its
// messages and the feedback given on its answers.
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf } from 'agent-platform/sdk';
import type { ConversationFilter, Conversations } from '../services/conversations.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'chat'];

interface ConversationQuery {
  user?: string; owner_key?: string; client_id?: number; from?: Date; to?: Date; has_feedback?: boolean; rating?: number; skip: number; limit: number;
}

export function filterOf(query: ConversationQuery): ConversationFilter {
  return {
    user: query.user, ownerKey: query.owner_key, clientId: query.client_id, from: query.from, to: query.to,
    hasFeedback: query.has_feedback, rating: query.rating,
  };
}

export function conversationRoutes(conversations: Conversations): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/admin/chat/sessions',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'The tenant\'s chat sessions of every user and client, most recent activity first (tenant admin)',
        notes: 'Active and ended sessions (deleted ones are gone), each with its owner (owner_sub, owner_key) and its counts of messages and feedback. '
          + 'Filters: user (owner subject), owner_key, client_id, from (activity at or after), to (started before), has_feedback, rating.',
        validate: { query: s.conversationQuery }, response: { schema: s.conversationList },
      },
      handler: (request) => {
        const query = request.query as unknown as ConversationQuery;
        return conversations.list(tenantOf(request), filterOf(query), query.skip, query.limit);
      },
    },
    {
      method: 'GET', path: '/api/admin/chat/sessions/{session_id}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'One chat session of the tenant, whoever owns it (tenant admin)',
        validate: { params: s.sessionParams }, response: { schema: s.conversation },
      },
      handler: (request) => conversations.get(tenantOf(request), (request.params as { session_id: string }).session_id),
    },
    {
      method: 'GET', path: '/api/admin/chat/sessions/{session_id}/messages',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'Messages of a chat session of the tenant, oldest first, each with the feedback given on it (tenant admin)',
        notes: 'feedback: {rating, comment, created_at, updated_at} or null. Page on with after=next_after.',
        validate: { params: s.sessionParams, query: s.conversationMessagesQuery }, response: { schema: s.conversationMessageList },
      },
      handler: (request) => {
        const { after, limit } = request.query as { after: number; limit: number };
        return conversations.messages(tenantOf(request), (request.params as { session_id: string }).session_id, after, limit);
      },
    },
  ];
}
