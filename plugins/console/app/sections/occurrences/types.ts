// The shapes the Occurrences section reads from the occurrences plugin's
// backoffice routes, and how a state is shown.
import type { Tone } from '../../ui/status-badge.ts';

export interface Occurrence {
  id: number; reference: string; occurrence_type: number; title: string; description: string;
  latitude: number; longitude: number; address: string | null; state: string; duplicate_of: number | null;
  created_at: string; reporter_name: string | null; reporter_email: string | null; reporter_phone: string | null;
  source: string; support_count: number;
}

export interface HistoryEntry { id: number; from_state: string | null; to_state: string; comment: string; actor: string | null; created_at: string }
export interface Message { id: number; template_id: number | null; channel: string; subject: string; body: string; created_by: string | null; created_at: string }
export interface Linked { id: number; reference: string; title: string; state: string; created_at: string }

export interface OccurrenceDetail extends Occurrence {
  type: { id: number; name: string; code: string } | null;
  history: HistoryEntry[]; messages: Message[]; duplicates: Linked[];
}

export interface OccurrenceType { id: number; name: string; code: string }
export interface State { key: string; label: string; is_initial: boolean; is_final: boolean }
export interface StateGraph { states: State[]; transitions: { from_state: string; to_state: string }[] }
export interface AllowedTransition { to_state: string; label: string; is_final: boolean; requires: string[] }
export interface Template { id: number; name: string; channel: string; subject: string; body: string }
export interface Preview { channel: string | null; subject: string; body: string; unknown_variables: string[]; applicable: boolean | null }

/** The badge tone of a state: initial neutral, final ok, in between warn. */
export function stateTone(graph: StateGraph | null, key: string): Tone {
  const state = graph?.states.find((s) => s.key === key);
  if (!state) return 'neutral';
  if (state.is_final) return 'ok';
  return state.is_initial ? 'neutral' : 'warn';
}
