// The badge tone of an execution's or a step's status.
import type { Tone } from '../../ui/status-badge.ts';

export function statusTone(status: string): Tone {
  if (status === 'completed' || status === 'signal' || status === 'then' || status === 'else') return 'ok';
  if (status === 'failed' || status === 'cancelled' || status === 'timeout') return 'error';
  if (status === 'waiting' || status === 'running') return 'warn';
  return 'neutral';
}
