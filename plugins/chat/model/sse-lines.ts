// An incremental reader of a text/event-stream body: feed it chunks as they
// arrive (split anywhere, even inside a line), get each event's data back.
// Only `data:` lines matter to our readers; comments and other fields are skipped.
//
// `feed` hands each complete event to a callback as it is found (no array of
// event objects per chunk, no line strings): a model streams one small event
// per chunk, hundreds of streams at once, and this runs for every one. A chunk
// that is exactly one `data: …` event with nothing pending is read with one
// search and one slice.

export type OnEvent = (data: string, id: string | undefined) => void;

const LF = 10;
const CR = 13;
const SPACE = 32;

export class SseReader {
  /** An incomplete line carried over to the next chunk. */
  private buffer = '';
  /** The event's data lines so far, joined by \n; undefined when it has none. */
  private data: string | undefined = undefined;
  private id: string | undefined;

  /** Calls `onEvent` for each event the chunk completes: its joined data lines and the last id. */
  feed(chunk: string, onEvent: OnEvent): void {
    let text = chunk;
    if (this.buffer !== '') {
      text = this.buffer + chunk;
      this.buffer = '';
    }
    const length = text.length;
    if (this.data === undefined && length > 7 && text.charCodeAt(length - 1) === LF && text.charCodeAt(length - 2) === LF
      && text.charCodeAt(length - 3) !== CR && text.startsWith('data: ') && text.indexOf('\n') === length - 2) {
      onEvent(text.slice(6, length - 2), this.id);
      return;
    }
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      if (end === -1) break;
      const line = start;
      const stop = end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end;
      start = end + 1;
      if (stop === line) {
        if (this.data !== undefined) {
          const data = this.data;
          this.data = undefined;
          onEvent(data, this.id);
        }
        continue;
      }
      // Neither field name holds a line break, so a match lies within the line.
      if (text.startsWith('data:', line)) {
        const value = text.slice(text.charCodeAt(line + 5) === SPACE ? line + 6 : line + 5, stop);
        this.data = this.data === undefined ? value : `${this.data}\n${value}`;
      } else if (text.startsWith('id:', line)) {
        this.id = text.slice(line + 3, stop).trim();
      }
    }
    if (start < length) this.buffer = start === 0 ? text : text.slice(start);
  }

  /** What is left when the stream ends (an event not followed by a blank line still counts). */
  close(onEvent: OnEvent): void {
    this.feed('\n\n', onEvent);
    this.buffer = '';
  }

  /** Returns the complete events found so far: their joined data lines and last id. */
  push(chunk: string): { data: string; id: string | undefined }[] {
    const events: { data: string; id: string | undefined }[] = [];
    this.feed(chunk, (data, id) => events.push({ data, id }));
    return events;
  }

  /** `close`, as a list. */
  end(): { data: string; id: string | undefined }[] {
    const events: { data: string; id: string | undefined }[] = [];
    this.close((data, id) => events.push({ data, id }));
    return events;
  }
}
