// OCR with tesseract.js. `langPath` always points into the npm package that
// ships the traineddata (@tesseract.js-data/eng by default), with no cache
// folder, so nothing is ever fetched and nothing is written. One worker per
// parse, terminated after it.
import { createWorker, type Worker } from 'tesseract.js';

export interface OcrEngine {
  recognize(image: Buffer): Promise<string>;
  close(): Promise<void>;
}

export async function createOcr(langPath: string, languages: string): Promise<OcrEngine> {
  const worker: Worker = await createWorker(languages.split(/[+,\s]+/).filter(Boolean), 1, {
    langPath,
    gzip: true,
    cacheMethod: 'none',
    logger: () => {},
    errorHandler: () => {},
  });
  return {
    async recognize(image) {
      const { data } = await worker.recognize(image);
      return (data.text ?? '').replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
