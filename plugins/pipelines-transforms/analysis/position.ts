// Positions in tenant SQL. The parser reports byte offsets (0-based) into the
// UTF-8 text; errors carry 1-based line and column in characters.
export interface Position {
  line: number;
  column: number;
}

export function positionAt(sql: string, byteOffset: number | undefined): Position | undefined {
  if (byteOffset === undefined || byteOffset < 0) return undefined;
  const before = Buffer.from(sql).subarray(0, byteOffset).toString();
  const lines = before.split('\n');
  return { line: lines.length, column: [...lines[lines.length - 1]!].length + 1 };
}
