// Rewrites tenant SQL in place (byte ranges from the parser's token scan):
// each dataset reference becomes the lakehouse's as-of subquery for the
// current snapshot (row-level security still applies inside it), aliased by
// the alias written or the table segment; each $n gets a cast to its declared
// type, so PostgreSQL never has to guess a parameter's type.
import type { ScanToken } from 'libpg-query';
import type { RelationRef } from './types.ts';

interface Edit {
  start: number;
  end: number;
  text: string;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The end (byte offset) of the three-part name starting at `start`: five tokens (name . name . name). */
function nameEnd(tokens: ScanToken[], start: number): number {
  const index = tokens.findIndex((token) => token.start === start);
  if (index < 0 || index + 4 >= tokens.length) throw new Error(`no relation name at offset ${start}`);
  return tokens[index + 4]!.end;
}

function paramEnd(tokens: ScanToken[], start: number): number {
  const token = tokens.find((candidate) => candidate.start === start);
  if (!token) throw new Error(`no parameter at offset ${start}`);
  return token.end;
}

export function rewrite(
  sql: string, tokens: ScanToken[], relations: { ref: RelationRef; select: string }[],
  parameters: { location: number; cast: string }[],
): string {
  const edits: Edit[] = [
    ...relations.map(({ ref, select }) => ({
      start: ref.location, end: nameEnd(tokens, ref.location), text: `(${select})${ref.alias ? '' : ` AS ${quote(ref.table)}`}`,
    })),
    ...parameters.map((param) => {
      const end = paramEnd(tokens, param.location);
      return { start: param.location, end, text: `(${sql.length ? Buffer.from(sql).subarray(param.location, end).toString() : ''}::${param.cast})` };
    }),
  ].sort((a, b) => a.start - b.start);
  const bytes = Buffer.from(sql);
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of edits) {
    parts.push(bytes.subarray(cursor, edit.start).toString(), edit.text);
    cursor = edit.end;
  }
  parts.push(bytes.subarray(cursor).toString());
  return parts.join('');
}
