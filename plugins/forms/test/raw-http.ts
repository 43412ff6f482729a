// A raw HTTP/1.1 client for the upload tests: it sends a request's head and
// decides itself when (and whether) to send the body, and reads the first
// status line the server answers, so a test sees whether a refusal arrived
// before any body byte was sent, or whether the server asked for the body
// (100 Continue).
import net from 'node:net';

export interface RawResponse {
  /** Status of the first response line (100 when the server asked for the body). */
  status: number;
  headers: Record<string, string>;
  body: any;
}

export class RawRequest {
  private readonly socket: net.Socket;
  private buffer = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  private closed = false;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => {}); // a reset after the server's answer: the answer is already read
  }

  /** Connects and writes the head: the request line, `headers`, the blank line. */
  static async open(port: number, requestLine: string, headers: Record<string, string>): Promise<RawRequest> {
    const socket = net.connect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const head = [requestLine, 'Host: 127.0.0.1', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n');
    socket.write(head);
    return new RawRequest(socket);
  }

  write(bytes: Buffer | string): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (err) => (err ? reject(err) : resolve())));
  }

  /** The next response: a 100 Continue interim answer, or the final one with its body (read until its length or the close). */
  async response(): Promise<RawResponse> {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const lines = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
        const status = Number(lines[0].split(' ')[1]);
        const headers = Object.fromEntries(lines.slice(1).map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }));
        if (status === 100) {
          this.buffer = this.buffer.subarray(end + 4);
          return { status, headers, body: '' };
        }
        const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
        const available = this.buffer.length - end - 4;
        if ((length !== undefined && available >= length) || this.closed) {
          const text = this.buffer.subarray(end + 4, length === undefined ? undefined : end + 4 + length).toString('utf8');
          this.buffer = this.buffer.subarray(end + 4 + (length ?? available));
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          return { status, headers, body };
        }
      } else if (this.closed) {
        throw new Error(`the connection closed without a response (${this.buffer.length} bytes read)`);
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** A multipart/form-data body holding `content` as the part `file`, with the head and tail around the content. */
export function multipart(content: Buffer, filename = 'photo.png') {
  const boundary = `----raw${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, content, tail]), head, tail, contentType: `multipart/form-data; boundary=${boundary}` };
}
