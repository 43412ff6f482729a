// The chat endpoints: ask (SSE), answer an
// ask_user (SSE continuation), follow a turn (SSE), cancel, feedback.
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf } from 'agent-platform/sdk';
import type { SessionsService } from '../services/sessions.ts';
import type { TurnsService } from '../services/turns.ts';
import type { CapabilityKey } from '../turn/capabilities.ts';
import { FRAME_DOC } from '../turn/frames.ts';
import * as s from '../schemas.ts';
import { sseResponse } from './sse.ts';
import type { StreamSlots } from '../services/stream-slots.ts';
import { callerOf, chatAuth, endUser, sessionIdOf, tags } from './sessions.ts';

export function chatRoutes(sessions: SessionsService, turns: TurnsService, slots: StreamSlots): ServerRoute[] {
  /** A stream slot of the tenant is taken first (429 past the limit, before anything is stored) and held until the response ends. */
  async function withSlot<T>(tenantId: string, work: (release: () => void) => Promise<T>): Promise<T> {
    const release = await slots.take(tenantId);
    try {
      return await work(release);
    } catch (err) {
      release();
      throw err;
    }
  }
  return [
    {
      method: 'POST', path: '/api/chat/{session_id}',
      options: {
        auth: chatAuth, tags, plugins: { platform: endUser },
        description: 'Ask a question; the answer streams as SSE',
        notes: FRAME_DOC,
        validate: { params: s.sessionParams, query: s.clientQuery, payload: s.chatBody },
      },
      handler: async (request, h) => {
        const { content, capability_keys } = request.payload as { content: string; capability_keys?: CapabilityKey[] };
        const caller = callerOf(request);
        return withSlot(tenantOf(request), async (release) => {
          const started = await turns.ask(...caller, sessionIdOf(request), content, [...new Set(capability_keys ?? [])]);
          return sseResponse(request, h, (out) => {
            const detach = started.channel.subscribe(0, out) || (() => {});
            started.go();
            return detach;
          }, release);
        });
      },
    },
    {
      method: 'POST', path: '/api/chat/{session_id}/human-input',
      options: {
        auth: chatAuth, tags, plugins: { platform: endUser },
        description: 'Answer the pending ask_user question (owner of the session only); the rest of the answer streams as SSE',
        notes: FRAME_DOC,
        validate: { params: s.sessionParams, query: s.clientQuery, payload: s.humanInputBody },
      },
      handler: async (request, h) => {
        const { tool_call_id, answer } = request.payload as { tool_call_id: string; answer: string };
        const caller = callerOf(request);
        return withSlot(tenantOf(request), async (release) => {
          const started = await turns.answer(...caller, sessionIdOf(request), tool_call_id, answer);
          return sseResponse(request, h, (out) => {
            const detach = started.channel.subscribe(started.channel.lastSeq, out) || (() => {});
            started.go();
            return detach;
          }, release);
        });
      },
    },
    {
      method: 'GET', path: '/api/chat/{session_id}/stream',
      options: {
        auth: chatAuth, tags, plugins: { platform: endUser },
        description: 'Replay the frames of the session\'s latest turn (or turn_id) after seq `after`, then follow it until it ends',
        notes: FRAME_DOC,
        validate: { params: s.sessionParams, query: s.streamQuery },
      },
      handler: (request, h) => {
        const { after, turn_id } = request.query as { after: number; turn_id?: string };
        const caller = callerOf(request);
        return withSlot(tenantOf(request), (release) =>
          sseResponse(request, h, (out) => turns.follow(...caller, sessionIdOf(request), turn_id, after, out), release));
      },
    },
    {
      method: 'POST', path: '/api/chat/{session_id}/cancel',
      options: {
        auth: chatAuth, tags, plugins: { platform: endUser },
        description: 'Stop the running answer: stopped (it was streaming), cancelling (between model calls), no_active_turn',
        validate: { params: s.sessionParams, query: s.cancelQuery }, response: { schema: s.cancelResult },
      },
      handler: (request) => turns.cancel(...callerOf(request), sessionIdOf(request), (request.query as { turn_id?: string }).turn_id),
    },
    {
      method: 'POST', path: '/api/chat/{session_id}/feedback',
      options: {
        auth: chatAuth, tags, plugins: { platform: endUser },
        description: 'Rate an assistant message (201 first time, 200 when it replaces an earlier rating)',
        validate: { params: s.sessionParams, query: s.clientQuery, payload: s.feedbackBody }, response: { schema: s.feedbackResult },
      },
      handler: async (request, h) => {
        const result = await sessions.feedback(...callerOf(request), sessionIdOf(request), request.payload as never);
        return h.response(result).code(result.created ? 201 : 200);
      },
    },
  ];
}
