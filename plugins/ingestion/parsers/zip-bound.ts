// A bound on what an Office (zip) document expands to, checked before its
// parser sees it. The parser process's heap limit (--max-old-space-size)
// does not count inflated Buffers, which live outside V8's heap, and a bomb
// caught by it costs a process and says only "out of memory". So every entry
// is inflated here first, with zlib's `maxOutputLength` capping the output at
// the remaining budget: at most the budget is ever allocated, whatever the
// headers claim, and the document fails with what it expands past.
import { inflateRawSync } from 'node:zlib';
import { ParseError } from './types.ts';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

function endOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, at the end.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 65_535); at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw new ParseError('Invalid Office document: not a zip archive');
}

/** Throws a ParseError when the archive's entries together expand past `maxBytes` (or it is malformed). */
export function assertZipExpandsWithin(bytes: Uint8Array, maxBytes: number, limitName: string): void {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tooBig = () => new ParseError(`the document expands past ${Math.round(maxBytes / 1024 / 1024)} MiB when unzipped (${limitName})`);
  const eocd = endOfCentralDirectory(zip);
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  let budget = maxBytes;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL_ENTRY) throw new ParseError('Invalid Office document: corrupt zip directory');
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const localHeader = zip.readUInt32LE(at + 42);
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (localHeader + 30 > zip.length || zip.readUInt32LE(localHeader) !== LOCAL_HEADER) throw new ParseError('Invalid Office document: corrupt zip entry');
    const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    // ZIP64 sizes (0xFFFFFFFF) mean an entry of 4 GiB or more: far past any budget.
    if (compressedSize === 0xffffffff) throw tooBig();
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    if (method === STORED) {
      budget -= data.length;
    } else if (method === DEFLATED) {
      try {
        budget -= inflateRawSync(data, { maxOutputLength: Math.max(1, budget) }).length;
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooBig();
        throw new ParseError(`Invalid Office document: ${(err as Error).message}`);
      }
    } else {
      throw new ParseError(`Invalid Office document: unsupported zip compression method ${method}`);
    }
    if (budget < 0) throw tooBig();
  }
}
