// Approximate substring search: the window of `text` with the smallest edit
// (Levenshtein) distance to `pattern`. Myers' bit-parallel algorithm in
// Hyyrö's blocked form (as edlib implements it): 32 pattern rows per machine
// word, so a 200-character quote against a 2,000-character chunk costs
// 7 × 2,000 word steps instead of 400,000 cells of the textbook table.
//
// Two passes: a forward pass with a free start in the text finds the smallest
// distance and the first position where a window with it ends; a backward pass
// over the reversed pattern, anchored at that end, finds the shortest window
// with that distance. Offsets are UTF-16 code units (String.prototype.slice).

export interface Window {
  distance: number;
  /** The window is text.slice(start, end). */
  start: number;
  end: number;
}

const HIGH_BIT = 0x80000000 | 0;

/**
 * Code unit → alphabet slot (1-based; 0 = not in the pattern). One table for
 * the process, reset after each call: allocating 64K entries per call would
 * cost more than the search itself. Calls are synchronous, so never interleaved.
 */
const slots = new Int32Array(65536);

interface Prepared {
  blocks: number;
  /** Match masks, (slot × blocks + block); slot 0 (characters absent from the pattern) stays all zeros. */
  peq: Int32Array;
  /** The bit of the pattern's last row in the last block. */
  lastBit: number;
}

function prepare(pattern: string, reversed: boolean, slotCount: number): Prepared {
  const m = pattern.length;
  const blocks = (m + 31) >>> 5;
  const peq = new Int32Array((slotCount + 1) * blocks);
  for (let i = 0; i < m; i += 1) {
    const row = reversed ? m - 1 - i : i;
    const slot = slots[pattern.charCodeAt(i)];
    peq[slot * blocks + (row >>> 5)] |= 1 << (row & 31);
  }
  return { blocks, peq, lastBit: 1 << ((m - 1) & 31) };
}

/**
 * Runs the columns `from` → `to` (exclusive; `step` -1 walks backwards) and
 * calls `visit(score, column)` with D[m][column]; stops when visit returns true.
 * `anchored`: the window must start at the first column visited (top row
 * D[0][j] = j) rather than anywhere (D[0][j] = 0).
 */
function scan(prepared: Prepared, m: number, text: string, from: number, to: number, step: 1 | -1, anchored: boolean,
  visit: (score: number, column: number) => boolean): void {
  const { blocks, peq, lastBit } = prepared;
  const pv = new Int32Array(blocks).fill(-1);
  const mv = new Int32Array(blocks);
  const last = blocks - 1;
  const topIn = anchored ? 1 : 0;
  let score = m;
  for (let j = from; j !== to; j += step) {
    const base = slots[text.charCodeAt(j)] * blocks;
    let hin = topIn;
    for (let b = 0; b < blocks; b += 1) {
      let eq = peq[base + b];
      const pvb = pv[b];
      const mvb = mv[b];
      const hinNeg = hin < 0 ? 1 : 0;
      const xv = eq | mvb;
      eq |= hinNeg;
      // The sum may carry out of 32 bits; `^` truncates it back (two's complement wrap).
      const xh = (((eq & pvb) + pvb) ^ pvb) | eq;
      let ph = mvb | ~(xh | pvb);
      let mh = pvb & xh;
      const rowBit = b === last ? lastBit : HIGH_BIT;
      const hout = (ph & rowBit) !== 0 ? 1 : (mh & rowBit) !== 0 ? -1 : 0;
      ph = (ph << 1) | (hin > 0 ? 1 : 0);
      mh = (mh << 1) | hinNeg;
      pv[b] = mh | ~(xv | ph);
      mv[b] = ph & xv;
      hin = hout;
    }
    score += hin;
    if (visit(score, j)) return;
  }
}

/**
 * The best window, or null when the pattern or text is empty or nothing beats
 * deleting the whole pattern (distance m: no character in common where it counts).
 */
export function bestWindow(pattern: string, text: string): Window | null {
  const m = pattern.length;
  const n = text.length;
  if (m === 0 || n === 0) return null;
  let slotCount = 0;
  try {
    for (let i = 0; i < m; i += 1) {
      const code = pattern.charCodeAt(i);
      if (slots[code] === 0) slots[code] = ++slotCount;
    }
    const forward = prepare(pattern, false, slotCount);
    let best = m;
    let end = -1;
    scan(forward, m, text, 0, n, 1, false, (score, column) => {
      if (score < best) {
        best = score;
        end = column;
      }
      return best === 0;
    });
    if (end < 0) return null;
    // The shortest window ending at `end` with that distance: anchored at `end`,
    // walking left; no window is shorter than m - best or longer than m + best.
    const backward = prepare(pattern, true, slotCount);
    let start = -1;
    const stop = Math.max(-1, end - (m + best));
    scan(backward, m, text, end, stop, -1, true, (score, column) => {
      if (score <= best) {
        start = column;
        return true;
      }
      return false;
    });
    if (start < 0) return null;
    return { distance: best, start, end: end + 1 };
  } finally {
    for (let i = 0; i < m; i += 1) slots[pattern.charCodeAt(i)] = 0;
  }
}

/** The textbook O(m·n) table for the same question: the reference the tests compare the fast path with. */
export function bestWindowReference(pattern: string, text: string): { distance: number } | null {
  const m = pattern.length;
  const n = text.length;
  if (m === 0 || n === 0) return null;
  let previous = new Int32Array(m + 1);
  let current = new Int32Array(m + 1);
  for (let i = 0; i <= m; i += 1) previous[i] = i;
  let best = m;
  for (let j = 1; j <= n; j += 1) {
    current[0] = 0;
    for (let i = 1; i <= m; i += 1) {
      const cost = pattern.charCodeAt(i - 1) === text.charCodeAt(j - 1) ? 0 : 1;
      current[i] = Math.min(previous[i - 1] + cost, previous[i] + 1, current[i - 1] + 1);
    }
    best = Math.min(best, current[m]);
    [previous, current] = [current, previous];
  }
  return best < m ? { distance: best } : null;
}
