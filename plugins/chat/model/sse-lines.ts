// An incremental reader of a text/event-stream body: feed it chunks as they
// arrive (split anywhere, even inside a line), get each event's data back.
// Only `data:` lines matter to our readers; comments and other fields are skipped.

export class SseReader {
  private buffer = '';
  private data: string[] = [];
  private id: string | undefined;

  /** Returns the complete events found so far: their joined data lines and last id. */
  push(chunk: string): { data: string; id: string | undefined }[] {
    this.buffer += chunk;
    const events: { data: string; id: string | undefined }[] = [];
    let start = 0;
    for (;;) {
      const end = this.buffer.indexOf('\n', start);
      if (end === -1) break;
      let line = this.buffer.slice(start, end);
      start = end + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (this.data.length > 0) events.push({ data: this.data.join('\n'), id: this.id });
        this.data = [];
        continue;
      }
      if (line.startsWith('data:')) this.data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
      else if (line.startsWith('id:')) this.id = line.slice(3).trim();
    }
    this.buffer = start === 0 ? this.buffer : this.buffer.slice(start);
    return events;
  }

  /** What is left when the stream ends (an event not followed by a blank line still counts). */
  end(): { data: string; id: string | undefined }[] {
    const events = this.push('\n\n');
    this.buffer = '';
    return events;
  }
}
