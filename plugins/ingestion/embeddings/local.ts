// A local sentence-embedding model run by transformers.js, loaded from the
// folder INGESTION_EMBEDDING_MODEL_PATH or of a pulled model (config.json, tokenizer.json,
// tokenizer_config.json, onnx/model.onnx or onnx/model_quantized.onnx).
// Remote loading is disabled: nothing is ever fetched. Mean pooling and
// normalisation, as sentence-transformers models (MiniLM) are used.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { normalize, type Embedder } from './embedder.ts';

type Extractor = (texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<{ tolist(): number[][] }>;

export class LocalEmbedder implements Embedder {
  readonly model: string;
  private readonly folder: string;
  private extractor: Promise<Extractor> | undefined;

  /** `name`: a pulled model's name (`local:<name>`); else the model is named by its folder (`local:<folder name>`). */
  constructor(folder: string, name?: string) {
    this.folder = path.resolve(folder);
    this.model = `local:${name ?? path.basename(this.folder)}`;
  }

  private load(): Promise<Extractor> {
    this.extractor ??= (async () => {
      const transformers = await import('@huggingface/transformers');
      transformers.env.allowRemoteModels = false;
      transformers.env.allowLocalModels = true;
      transformers.env.localModelPath = path.dirname(this.folder);
      const quantized = existsSync(path.join(this.folder, 'onnx', 'model_quantized.onnx'));
      const extractor = await transformers.pipeline('feature-extraction', path.basename(this.folder), {
        local_files_only: true,
        dtype: quantized ? 'q8' : 'fp32',
        device: 'cpu',
      });
      return extractor as unknown as Extractor;
    })();
    this.extractor.catch(() => {
      this.extractor = undefined; // a broken folder may be fixed without a restart
    });
    return this.extractor;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return [];
    const extractor = await this.load();
    signal?.throwIfAborted();
    const output = await extractor(texts, { pooling: 'mean', normalize: true });
    return output.tolist().map(normalize);
  }
}
