// Reads an SSE response (the chat contract: `id: <seq>` + `data: <json>` per
// frame) and hands each frame over as it arrives.
import type { Frame } from './types.ts';

export async function readFrames(response: Response, onFrame: (frame: Frame) => void): Promise<void> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const frame = parseBlock(block);
      if (frame) onFrame(frame);
    }
  }
}

function parseBlock(block: string): Frame | null {
  let id: number | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('id:')) id = Number(line.slice(3).trim());
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length === 0) return null;
  try {
    const frame = JSON.parse(data.join('\n')) as Frame;
    if (typeof frame.seq !== 'number' && id !== undefined) frame.seq = id;
    return frame;
  } catch {
    return null;
  }
}
