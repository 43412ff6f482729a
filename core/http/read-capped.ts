// Reads a response body up to a byte limit, for outbound calls whose answers
// go back to a workflow or an agent: a larger body is cancelled and refused
// (502 RESPONSE_TOO_LARGE) instead of being buffered whole.
import { domainError } from '../errors.ts';

export async function readCapped(stream: ReadableStream<Uint8Array> | undefined, cap: number): Promise<Uint8Array> {
  if (!stream) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      throw domainError(502, `the response body exceeds ${cap} bytes`, 'RESPONSE_TOO_LARGE');
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}
