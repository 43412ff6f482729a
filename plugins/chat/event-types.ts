// The event types the chat plugin registers (its definition.* events for
// agents are registered by the workflows plugin, which owns that type).
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const EVENT_TYPES: EventTypeDefinition[] = [
  { type: 'chat.session.created', description: 'A chat session is created through the API' },
  { type: 'chat.session.ended', description: 'A chat session workflow completes or times out' },
  { type: 'chat.feedback.given', description: 'Someone rates an answer in a chat session (session, message and rating; never the comment)' },
  { type: 'chat.tool.called', description: 'A tool is invoked in a chat session' },
  { type: 'chat.tool.completed', description: 'A tool invocation in a chat session succeeds' },
  { type: 'chat.tool.failed', description: 'A tool invocation in a chat session fails' },
  { type: 'agent.loop.started', description: 'An agent loop begins' },
  { type: 'agent.loop.completed', description: 'An agent loop finishes' },
  { type: 'agent.loop.iteration', description: 'An agent loop completes a reasoning cycle (only when emit_iteration_events is on)' },
  { type: 'agent.loop.failed', description: 'An agent loop errors or exceeds its iteration or token budget' },
];
