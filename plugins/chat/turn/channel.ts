// A turn's frames in the process that runs it: published frames go to every
// local subscriber at once (no database on the token path). Nothing is kept
// here for replay: a subscriber that arrives late reads Postgres and the frame
// writer's unflushed frames (services/turns.ts follow), then attaches here.
// Keeping frames of hundreds of long answers in memory would make the garbage
// collector copy them over and over, and its pauses are what tokens wait behind.
import { encodeFrame, frameJson, sseOfJson, textFrameJson, type Frame } from './frames.ts';

export interface PreparedFrame {
  seq: number;
  json: string;
  sse: string;
}

export interface Subscriber {
  write(chunk: string): void;
  end(): void;
}

export class TurnChannel {
  readonly turnId: string;
  /** The seq of the last frame sent to the subscribers. */
  private delivered: number;
  /**
   * An array, not a Set: iterated for every frame, nearly always of one.
   * Replaced, never changed in place, so a subscriber coming or going while
   * a frame is handed out changes only who gets the next one.
   */
  private subscribers: readonly Subscriber[] = [];
  private nextSeq: number;
  private ended = false;
  private readonly persist: (seq: number, json: string) => void;

  constructor(turnId: string, afterSeq: number, persist: (seq: number, json: string) => void) {
    this.turnId = turnId;
    this.delivered = afterSeq;
    this.nextSeq = afterSeq + 1;
    this.persist = persist;
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Sends a frame to the subscribers and hands it to the writer; returns its seq. */
  publish(frame: Frame): number {
    if (this.ended) throw new Error(`turn ${this.turnId}: frame after the end`);
    const seq = this.nextSeq++;
    this.send(seq, frameJson(seq, frame));
    return seq;
  }

  /** publish({ type: 'text', delta }), the frame of every token. */
  publishText(delta: string): number {
    if (this.ended) throw new Error(`turn ${this.turnId}: frame after the end`);
    const seq = this.nextSeq++;
    this.send(seq, textFrameJson(seq, delta));
    return seq;
  }

  private send(seq: number, json: string): void {
    this.persist(seq, json);
    this.delivered = seq;
    const subscribers = this.subscribers;
    if (subscribers.length === 0) return;
    const sse = sseOfJson(seq, json);
    for (let i = 0; i < subscribers.length; i++) subscribers[i].write(sse);
  }

  /**
   * Numbers a frame without sending it: the last frames of a turn are written
   * in the transaction that ends it, then delivered (deliver) once it committed.
   */
  prepare(frame: Frame): PreparedFrame {
    if (this.ended) throw new Error(`turn ${this.turnId}: frame after the end`);
    const seq = this.nextSeq++;
    return { seq, ...encodeFrame(seq, frame) };
  }

  deliver(prepared: PreparedFrame): void {
    this.delivered = prepared.seq;
    for (const subscriber of this.subscribers) subscriber.write(prepared.sse);
  }

  /**
   * Follows from `after` when the subscriber has seen every frame sent so far;
   * returns false when it has not (it reads the rest elsewhere, then asks again).
   */
  subscribe(after: number, subscriber: Subscriber): (() => void) | false {
    if (after < this.delivered) return false;
    if (this.ended) {
      subscriber.end();
      return () => {};
    }
    this.subscribers = [...this.subscribers, subscriber];
    return () => {
      this.subscribers = this.subscribers.filter((s) => s !== subscriber);
    };
  }

  /** No more frames: subscribers' streams end. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const subscribers = this.subscribers;
    this.subscribers = [];
    for (const subscriber of subscribers) subscriber.end();
  }
}
