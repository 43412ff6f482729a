// Downloads a transformers.js feature-extraction model from a Hugging Face
// compatible hub (`<hub>/<name>/resolve/<revision>/<file>`) into a folder:
// config.json, tokenizer.json, tokenizer_config.json, then the ONNX weights
// the local embedder loads (onnx/model_quantized.onnx, or onnx/model.onnx
// when the hub has no quantized one). Each file's bytes are reported as they
// arrive and checked against its Content-Length: a short body is refused. An
// unreachable hub or an error answer is one message naming the file, the
// status and how to install the model by hand.
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UsageError, type CliProgress } from 'agent-platform/sdk';

export const REQUIRED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;
/** In order of preference: the first the hub has is downloaded. */
export const WEIGHT_FILES = ['onnx/model_quantized.onnx', 'onnx/model.onnx'] as const;

/** A pull that failed: printed as one `error:` line by the CLI, as a usage error is. */
export class ModelPullError extends UsageError {
  override name = 'ModelPullError';
}

export interface DownloadRequest {
  hub: string;
  name: string;
  revision: string;
  /** Where the files are written (a temporary folder: the caller renames it into place). */
  folder: string;
  /** Where the model would go, named in the instructions for a download by hand. */
  destination: string;
  progress: CliProgress;
  /** Progress lines of one file at most this often (and its first and last). */
  progressIntervalMs?: number;
}

export interface DownloadedFile {
  path: string;
  bytes: number;
}

const baseOf = (request: DownloadRequest) => `${request.hub.replace(/\/+$/, '')}/${request.name}/resolve/${request.revision}/`;

function byHand(request: DownloadRequest): string {
  return `To install it by hand, download ${REQUIRED_FILES.join(', ')} and ${WEIGHT_FILES[0]} (or ${WEIGHT_FILES[1]}) `
    + `from ${baseOf(request)} into ${request.destination} (keeping the onnx/ folder), `
    + `then set INGESTION_EMBEDDING_MODEL_PATH=${request.destination}.`;
}

class HubAnswer extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

async function fetchFile(request: DownloadRequest, file: string): Promise<DownloadedFile> {
  const url = `${baseOf(request)}${file}`;
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'follow' });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new ModelPullError(`cannot reach the model hub for ${file} (${url}): ${cause?.code ?? cause?.message ?? (err as Error).message}. ${byHand(request)}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new HubAnswer(response.status, `the model hub answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''} for ${file} (${url}). ${byHand(request)}`);
  }
  const header = response.headers.get('content-length');
  const total = header !== null && /^\d+$/.test(header) ? Number(header) : undefined;
  const target = path.join(request.folder, ...file.split('/'));
  await mkdir(path.dirname(target), { recursive: true });
  let bytes = 0;
  let shown = 0;
  const show = (force: boolean) => {
    const now = Date.now();
    if (!force && now - shown < (request.progressIntervalMs ?? 250)) return;
    shown = now;
    request.progress(`${file} ${bytes}/${total ?? '?'} bytes`);
  };
  show(true);
  const count = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      bytes += chunk.length;
      show(false);
      yield chunk;
    }
  };
  const short = () => new ModelPullError(`${file} is incomplete: got ${bytes} of ${total ?? 'an unknown number of'} bytes (Content-Length) from ${url}. Nothing was installed; run the pull again. ${byHand(request)}`);
  try {
    await pipeline(Readable.fromWeb(response.body! as never), count, createWriteStream(target));
  } catch {
    throw short();
  }
  if (total !== undefined && bytes !== total) throw short();
  show(true);
  return { path: file, bytes };
}

/** Downloads the model's files into request.folder; the files and their sizes. */
export async function downloadModel(request: DownloadRequest): Promise<DownloadedFile[]> {
  const files: DownloadedFile[] = [];
  for (const file of REQUIRED_FILES) {
    try {
      files.push(await fetchFile(request, file));
    } catch (err) {
      if (err instanceof HubAnswer) throw new ModelPullError(err.message);
      throw err;
    }
  }
  for (const [i, file] of WEIGHT_FILES.entries()) {
    try {
      files.push(await fetchFile(request, file));
      return files;
    } catch (err) {
      const last = i === WEIGHT_FILES.length - 1;
      if (!(err instanceof HubAnswer)) throw err;
      if (err.status !== 404 || last) {
        throw new ModelPullError(last && err.status === 404
          ? `the model hub has neither ${WEIGHT_FILES.join(' nor ')} for ${request.name} (404): it is not a transformers.js (ONNX) model. ${byHand(request)}`
          : err.message);
      }
    }
  }
  return files;
}
