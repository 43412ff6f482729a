// The open conversation as the panel shows it: its messages and how each SSE
// frame of a turn changes them.
import type { Citation, Frame, StoredMessage } from './types.ts';

export type FeedbackState = 'idle' | 'sending' | 'sent' | 'failed';

export interface ViewMessage {
  key: string;
  role: 'user' | 'assistant';
  text: string;
  id?: number;
  interrupted?: boolean;
  streaming?: boolean;
  error?: string;
  citations?: Citation[];
  widgets?: { widget_type: string; data: unknown; open?: boolean }[];
  ask?: { toolCallId: string; question: string; options: string[]; answered: boolean };
  feedback: { state: FeedbackState; rating?: number; comment: string; formOpen: boolean };
}

let counter = 0;
export const keyOf = () => `m${++counter}`;

const emptyFeedback = () => ({ state: 'idle' as FeedbackState, comment: '', formOpen: false });

/** Stored messages as shown: the assistant's inline `<citations>` block is never text (the chat contract keeps it out). */
export function fromStored(items: StoredMessage[]): ViewMessage[] {
  return items.filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => ({
    key: keyOf(), role: m.role as 'user' | 'assistant', id: m.id,
    text: m.role === 'assistant' ? stripCitationBlock(m.content) : m.content,
    interrupted: m.tool_metadata?.interrupted === true,
    citations: m.tool_metadata?.citations, widgets: m.role === 'assistant' ? inlineWidgets(m.content) : undefined,
    feedback: m.feedback ? { state: 'sent', rating: m.feedback.rating, comment: m.feedback.comment ?? '', formOpen: false } : emptyFeedback(),
  }));
}

/** A stored answer keeps its widgets inline (`<report_widget>{json}</report_widget>`): read back as the frames showed them. */
export function inlineWidgets(text: string): { widget_type: string; data: unknown }[] {
  const widgets: { widget_type: string; data: unknown }[] = [];
  for (const match of text.matchAll(/<(\w+)_widget>([\s\S]*?)<\/\1_widget>/g)) {
    try {
      widgets.push({ widget_type: match[1]!, data: JSON.parse(match[2]!) });
    } catch {
      // malformed: the server drops it from the stream as well
    }
  }
  return widgets;
}

/** Stored text keeps the citation block and inline widget tags; they are shown from tool_metadata instead. */
export function stripCitationBlock(text: string): string {
  return text.replace(/<citations>[\s\S]*?<\/citations>/g, '').replace(/<(\w+_widget)>[\s\S]*?<\/\1>/g, '').trimEnd();
}

export function userMessage(text: string): ViewMessage {
  return { key: keyOf(), role: 'user', text, feedback: emptyFeedback() };
}

export function pendingAnswer(): ViewMessage {
  return { key: keyOf(), role: 'assistant', text: '', streaming: true, feedback: emptyFeedback() };
}

export type Activity = 'thinking' | 'looking_up' | 'writing' | null;

/** Applies one frame to the answer being streamed; returns the activity to show. */
export function applyFrame(answer: ViewMessage, frame: Frame, activity: Activity): Activity {
  switch (frame.type) {
    case 'activity': return frame.activity as Activity;
    case 'text': answer.text += frame.delta; return 'writing';
    case 'widget': answer.widgets = [...(answer.widgets ?? []), { widget_type: frame.widget_type, data: frame.data }]; return activity;
    case 'citations': answer.citations = frame.citations; return activity;
    case 'tool_status':
      if (frame.status === 'awaiting_input') {
        answer.ask = { toolCallId: frame.tool_call_id, question: frame.question ?? '', options: frame.options ?? [], answered: false };
        return null;
      }
      return frame.status === 'running' ? 'looking_up' : activity;
    case 'error':
      if (frame.code === 'INTERRUPTED') answer.interrupted = true;
      else answer.error = frame.message;
      return activity;
    case 'message': answer.id = frame.message_id; answer.interrupted = frame.interrupted === true; return activity;
    case 'done': answer.streaming = false; return null;
    default: return activity;
  }
}
