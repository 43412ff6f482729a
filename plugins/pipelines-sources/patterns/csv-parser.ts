// A streaming CSV parser (RFC 4180: quoted fields, doubled quotes, line
// breaks inside quotes, CRLF or LF): text chunks in, rows of fields out.
export function createCsvParser(delimiter: string) {
  let field = '';
  let row: string[] = [];
  let quoted = false;
  let afterQuote = false;
  let rows: string[][] = [];

  const endField = () => {
    row.push(field);
    field = '';
    afterQuote = false;
  };
  const endRow = () => {
    endField();
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
  };

  return {
    /** Parses a chunk; returns the rows it completed. */
    push(chunk: string): string[][] {
      for (let i = 0; i < chunk.length; i++) {
        const ch = chunk[i]!;
        if (quoted) {
          if (ch === '"') {
            quoted = false;
            afterQuote = true;
          } else field += ch;
        } else if (ch === '"') {
          // A doubled quote inside a quoted field, or the opening quote.
          if (afterQuote) field += '"';
          quoted = true;
          afterQuote = false;
        } else if (ch === delimiter) endField();
        else if (ch === '\n') endRow();
        else if (ch === '\r') continue;
        else {
          field += ch;
          afterQuote = false;
        }
      }
      const done = rows;
      rows = [];
      return done;
    },
    /** The last row when the text did not end with a line break. */
    end(): string[][] {
      if (field !== '' || row.length > 0) endRow();
      const done = rows;
      rows = [];
      return done;
    },
  };
}
