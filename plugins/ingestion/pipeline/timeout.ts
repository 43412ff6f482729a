// Stage timeouts (INGESTION_PARSE_TIMEOUT, _CHUNK_TIMEOUT, _EMBED_TIMEOUT).
// A stage past its time fails with a StageTimeout: fatal for parsing (the
// same bytes would time out again), recorded as an enrichment failure for
// embeddings (the document still becomes ready).

export class StageTimeout extends Error {
  override name = 'StageTimeout';
}

/** Runs work with an abort signal that fires after `seconds`; rejects with StageTimeout then. */
export async function withTimeout<T>(seconds: number, what: string, work: (signal: AbortSignal) => Promise<T>, outer?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  const onOuter = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuter, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new StageTimeout(`${what} timed out after ${seconds} s`);
      controller.abort(error);
      reject(error);
    }, seconds * 1000);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
}
