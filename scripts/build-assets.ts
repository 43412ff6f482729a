// What the builders of browser code (scripts/build-widget.ts,
// scripts/build-console.ts) share: the built files of a folder, and a brotli
// copy beside each (`<file>.br`, served to browsers that accept brotli).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

/** The files under `dir` (recursively), without the `.br` copies, sorted. */
export async function listBuiltFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && !e.name.endsWith('.br')).map((e) => path.join(e.parentPath, e.name)).sort();
}

/** Writes `<file>.br` (quality 11) beside every built file; returns the files. */
export async function writeBrotliCopies(dir: string): Promise<string[]> {
  const files = await listBuiltFiles(dir);
  for (const file of files) {
    const bytes = await readFile(file);
    await writeFile(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  }
  return files;
}

/** One line per file: its size and its brotli size. */
export async function sizeReport(dir: string, files: string[]): Promise<string[]> {
  return Promise.all(files.map(async (file) => `  ${path.relative(dir, file)}  ${(await readFile(file)).length} B, brotli ${(await readFile(`${file}.br`)).length} B`));
}
