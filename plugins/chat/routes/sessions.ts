// Sessions and messages (embed-chat 4): scoped to the caller and client.
import type { Request, ServerRoute } from '@hapi/hapi';
import { type Principal, tenantOf } from 'agent-platform/sdk';
import { actorOf, VISITOR_HEADER } from '../sessions/caller.ts';
import type { SessionsService } from '../services/sessions.ts';
import * as s from '../schemas.ts';

/** Members, API keys and embed tokens: these are the end-user surfaces (embed tokens reach nothing else). */
export const endUser = { tenant: 'required', endUser: true } as const;
export const tags = ['api', 'chat'];
export const chatAuth = { strategies: ['bearer', 'api-key'] };

/** Tenant, actor (an API key's with its X-Visitor-Id: 400 without one) and selected client of a chat request. */
export function callerOf(request: Request) {
  const query = request.query as { selected_client?: string | number };
  const actor = actorOf(request.auth.credentials as unknown as Principal, request.headers[VISITOR_HEADER] as string | undefined);
  return [tenantOf(request), actor, query.selected_client] as const;
}
export const sessionIdOf = (request: Request) => (request.params as { session_id: string }).session_id;

export function sessionRoutes(sessions: SessionsService): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/sessions',
      options: {
        auth: chatAuth, tags, description: 'The caller\'s active sessions on the client, most recent first',
        plugins: { platform: endUser }, validate: { query: s.sessionListQuery }, response: { schema: s.sessionList },
      },
      handler: (request) => {
        const { skip, limit } = request.query as { skip: number; limit: number };
        return sessions.list(...callerOf(request), skip, limit);
      },
    },
    {
      method: 'POST', path: '/api/sessions',
      options: {
        auth: chatAuth, tags, description: 'Start a conversation (emits chat.session.created)',
        plugins: { platform: endUser }, validate: { query: s.clientQuery, payload: s.createSession }, response: { schema: s.session },
      },
      handler: async (request, h) => h.response(await sessions.create(...callerOf(request), (request.payload ?? {}) as never)).code(201),
    },
    {
      method: 'GET', path: '/api/sessions/{session_id}',
      options: {
        auth: chatAuth, tags, description: 'One session of the caller',
        plugins: { platform: endUser }, validate: { params: s.sessionParams, query: s.clientQuery }, response: { schema: s.session },
      },
      handler: (request) => sessions.get(...callerOf(request), sessionIdOf(request)),
    },
    {
      method: 'GET', path: '/api/sessions/{session_id}/messages',
      options: {
        auth: chatAuth, tags, description: 'Messages of a conversation, oldest first (page on with after=next_after)',
        plugins: { platform: endUser }, validate: { params: s.sessionParams, query: s.messagesQuery }, response: { schema: s.messageList },
      },
      handler: (request) => {
        const { after, limit } = request.query as { after: number; limit: number };
        return sessions.messages(...callerOf(request), sessionIdOf(request), after, limit);
      },
    },
    {
      method: 'PATCH', path: '/api/sessions/{session_id}',
      options: {
        auth: chatAuth, tags, description: 'Rename a conversation',
        plugins: { platform: endUser }, validate: { params: s.sessionParams, query: s.clientQuery, payload: s.renameSession }, response: { schema: s.session },
      },
      handler: (request) => sessions.rename(...callerOf(request), sessionIdOf(request), (request.payload as { title: string }).title),
    },
    {
      method: 'DELETE', path: '/api/sessions/{session_id}',
      options: {
        auth: chatAuth, tags, description: 'Delete a conversation (soft: no longer listed; a running answer is stopped; emits chat.session.ended)',
        plugins: { platform: endUser }, validate: { params: s.sessionParams, query: s.clientQuery },
      },
      handler: async (request, h) => {
        await sessions.remove(...callerOf(request), sessionIdOf(request));
        return h.response().code(204);
      },
    },
  ];
}
