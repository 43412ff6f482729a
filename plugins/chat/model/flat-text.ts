// Text built from many small pieces of a model's stream (the reply, the text
// kept for storage, a tool call's arguments), kept flat as it grows.
//
// V8 keeps a substring of 13 characters or more as a view of the string it
// was cut from, and JSON.parse cuts a token's text out of its SSE event that
// way. Appended as they come, long tokens would each keep their whole event
// alive for as long as the turn, and with hundreds of streams the young
// generation's collections would copy all of them, pausing every stream's
// tokens. Every FLATTEN_EVERY pieces the text is copied into one flat string,
// which lets those events go.

/** Pieces appended between two copies (a few hundred ms of a model's stream). */
export const FLATTEN_EVERY = 16;

export class FlatText {
  private text = '';
  private pieces = 0;

  append(piece: string): void {
    this.text += piece;
    if (++this.pieces === FLATTEN_EVERY) {
      this.pieces = 0;
      flatten(this.text);
    }
  }

  get length(): number {
    return this.text.length;
  }

  toString(): string {
    return this.text;
  }
}

/**
 * Makes V8 copy a string built by concatenation into one flat string and drop
 * its pieces: reading its UTF-8 length needs it flat (a call into node's
 * binding, which the compiler cannot leave out).
 */
function flatten(text: string): void {
  Buffer.byteLength(text, 'utf8');
}
