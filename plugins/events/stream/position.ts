// Positions in a tenant's stream. An event is appended with an ordinary
// sequence number and its transaction's id; the stream's order is (xid, seq).
// A reader reads only events whose transaction is older than every
// transaction still running (the visibility horizon, pg_snapshot_xmin): every
// later commit then has a greater xid, so a position once passed is never
// landed behind. Transaction ids are xid8 (64 bits, no wraparound), carried as
// decimal text.

export interface StreamPosition {
  xid: string;
  seq: number;
}

/** Before every event. */
export const STREAM_START: StreamPosition = { xid: '0', seq: 0 };

export function comparePositions(a: StreamPosition, b: StreamPosition): number {
  const ax = BigInt(a.xid);
  const bx = BigInt(b.xid);
  if (ax !== bx) return ax < bx ? -1 : 1;
  return a.seq - b.seq;
}

export const isPast = (event: StreamPosition, position: StreamPosition) => comparePositions(event, position) <= 0;

/**
 * Whether a transaction's work is visible in a pg_snapshot (its text form
 * `xmin:xmax:xip,…`): it committed before the snapshot was taken.
 */
export function visibleIn(xid: string, snapshot: string): boolean {
  const [xmin, xmax, running] = snapshot.split(':');
  const id = BigInt(xid);
  if (id < BigInt(xmin)) return true;
  if (id >= BigInt(xmax)) return false;
  return !(running ? running.split(',') : []).some((other) => BigInt(other) === id);
}

/**
 * A trigger listens to the events committed after the statement that created
 * or activated it: those its snapshot could not see. A trigger activated
 * before positions existed keeps its number bound (every new event's number
 * passes it).
 */
export function listensTo(trigger: { listen_after_seq: number; listen_after_snapshot: string | null }, event: StreamPosition): boolean {
  if (event.seq <= trigger.listen_after_seq) return false;
  return trigger.listen_after_snapshot === null || !visibleIn(event.xid, trigger.listen_after_snapshot);
}

const XID_DIGITS = 20;
const SEQ_DIGITS = 19;

/** A position as text that sorts in stream order (what other plugins keep as a cursor). */
export const encodePosition = (position: StreamPosition) =>
  `${position.xid.padStart(XID_DIGITS, '0')}-${String(position.seq).padStart(SEQ_DIGITS, '0')}`;

/** The position of encodePosition's text; undefined for other text. */
export function decodePosition(text: string): StreamPosition | undefined {
  const match = /^(\d{1,20})-(\d{1,19})$/.exec(text);
  if (!match) return undefined;
  const seq = Number(match[2]);
  return Number.isSafeInteger(seq) ? { xid: BigInt(match[1]).toString(), seq } : undefined;
}
