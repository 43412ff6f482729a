// Pulled embedding models: `pull` downloads a model from the hub
// (models/download.ts) into a temporary folder under `<data dir>/models`,
// loads it and embeds a sentence, records it (platform-model.json), renames
// it into place (a failed or interrupted pull installs nothing) and makes it
// the embedding model (models/active.json: the settings resolve to it at the
// next boot, which re-embeds the existing chunks in the background). `list`
// is the pulled models; `status` is where the re-embedding stands.
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError, type CliProgress, type CoreServices } from 'agent-platform/sdk';
import { settingsOf, type IngestionSettings } from '../config/settings.ts';
import type { Embedder } from '../embeddings/embedder.ts';
import { LocalEmbedder } from '../embeddings/local.ts';
import { downloadModel, ModelPullError } from '../models/download.ts';
import {
  ACTIVE_FILE, isModelName, MODEL_INFO_FILE, modelFolder, PULL_PREFIX, pulledModels, type PulledModelInfo,
} from '../models/folders.ts';
import type { IngestionOptions } from '../options.ts';
import { reembedCounts } from '../pipeline/reembed.ts';

const REVISION = 'main';
const PROBE = 'The pump seal leaks when the bearing grease is old.';

const bytesOf = (info: PulledModelInfo) => info.files.reduce((sum, file) => sum + file.bytes, 0);

/** Removes the temporary folders of pulls whose process is gone (a crash or Ctrl-C leaves one behind). */
async function removeAbandonedPulls(modelsDir: string): Promise<void> {
  const entries = existsSync(modelsDir) ? readdirSync(modelsDir) : [];
  for (const entry of entries) {
    if (!entry.startsWith(PULL_PREFIX)) continue;
    const pid = Number(entry.slice(PULL_PREFIX.length).split('-')[0]);
    let alive = false;
    try {
      alive = Number.isInteger(pid) && pid > 0 && pid !== process.pid && process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (!alive) await rm(path.join(modelsDir, entry), { recursive: true, force: true });
  }
}

/** The vector dimension of the model in `folder`, after embedding a sentence with it. */
async function verify(folder: string): Promise<number> {
  try {
    const [vector] = await new LocalEmbedder(folder).embed([PROBE]);
    if (!vector?.length || !vector.every(Number.isFinite)) throw new Error('it returned no vector');
    return vector.length;
  } catch (err) {
    throw new ModelPullError(`the downloaded model does not load or embed: ${(err as Error).message}. Nothing was installed.`);
  }
}

/** Writes a file whole or not at all. */
async function writeAtomically(file: string, content: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, file);
}

/** `embedder`: the one these settings made (its model names the vectors it writes). */
export function createModelsService(core: CoreServices, options: IngestionOptions, settings: IngestionSettings, embedder: Embedder | undefined) {
  const modelsDir = settings.models.dir;

  /** Per tenant and in all: current chunks embedded by `model`, and those left to (re-)embed. */
  async function counts(model: string) {
    const tenants: { tenant: string; embedded: number; remaining: number }[] = [];
    await core.tenants.each(async (tenant) => {
      tenants.push({ tenant, ...(await reembedCounts(core, tenant, model)) });
    });
    return {
      embedded: tenants.reduce((sum, row) => sum + row.embedded, 0),
      remaining: tenants.reduce((sum, row) => sum + row.remaining, 0),
      tenants,
    };
  }

  return {
    async pull(name: string, progress: CliProgress) {
      if (!isModelName(name)) throw new UsageError(`not a model name: ${JSON.stringify(name)} (owner/model, e.g. Xenova/all-MiniLM-L6-v2)`);
      const destination = modelFolder(modelsDir, name);
      await mkdir(modelsDir, { recursive: true });
      await removeAbandonedPulls(modelsDir);
      const temporary = await mkdtemp(path.join(modelsDir, `${PULL_PREFIX}${process.pid}-`));
      // The model in a folder of its own below the temporary one: transformers.js loads a model by a name without a leading dot.
      const downloaded = path.join(temporary, 'model');
      let info: PulledModelInfo;
      try {
        const files = await downloadModel({ hub: settings.models.hubUrl, name, revision: REVISION, folder: downloaded, destination, progress });
        progress(`verifying ${name}: loading it and embedding a sentence`);
        const dims = await verify(downloaded);
        info = { name, hub: settings.models.hubUrl, revision: REVISION, files, dims, pulled_at: new Date().toISOString() };
        await writeFile(path.join(downloaded, MODEL_INFO_FILE), `${JSON.stringify(info, null, 2)}\n`);
        await mkdir(path.dirname(destination), { recursive: true });
        if (existsSync(destination)) {
          const previous = path.join(temporary, 'previous');
          await rename(destination, previous);
          try {
            await rename(downloaded, destination);
          } catch (err) {
            await rename(previous, destination);
            throw err;
          }
          await rm(previous, { recursive: true, force: true });
        } else {
          await rename(downloaded, destination);
        }
      } finally {
        await rm(temporary, { recursive: true, force: true });
      }
      await writeAtomically(path.join(modelsDir, ACTIVE_FILE), `${JSON.stringify({ name })}\n`);
      // The settings a restart derives, with this pull in place.
      const next = settingsOf(options, core.config.env, core.config.dataDir);
      const active = next.embedding.provider === 'local' && next.embedding.pulledModel === name;
      const model = `local:${name}`;
      const { remaining } = await counts(model);
      return {
        name, folder: destination, dims: info.dims, bytes: bytesOf(info), files: info.files,
        active,
        next: active
          ? `restart the server: it embeds with ${name}${remaining > 0 ? ` and re-embeds ${remaining} existing chunk(s) in the background (platform models status)` : ''}`
          : `not in use: ${next.embedding.modelPath ? `INGESTION_EMBEDDING_MODEL_PATH or INGESTION_EMBEDDING_MODEL names another model` : 'INGESTION_EMBEDDING_PROVIDER or INGESTION_EMBEDDING_BASE_URL selects another embedder'}; `
            + `set INGESTION_EMBEDDING_PROVIDER=local and INGESTION_EMBEDDING_MODEL=${name} (INGESTION_EMBEDDING_MODEL_PATH unset), then restart`,
        reembed: { chunks: active ? remaining : 0 },
      };
    },

    list() {
      const inUse = settings.embedding.provider === 'local' ? settings.embedding.pulledModel : undefined;
      return pulledModels(modelsDir).map((info) => ({
        name: info.name, bytes: bytesOf(info), dims: info.dims, in_use: info.name === inUse, pulled_at: info.pulled_at,
      }));
    },

    async status() {
      const { embedding } = settings;
      const model = embedder?.model;
      if (!model) return { model: null, state: 'no embedder (keyword search only)', embedded: 0, remaining: 0, tenants: [] };
      const found = await counts(model);
      const state = found.remaining === 0 ? 'done'
        : embedding.pulledModel ? 're-embedding (by the server, in the background, after its restart with this model)'
          : 'not re-embedded (only a pulled model re-embeds existing chunks)';
      return { model, state, ...found };
    },
  };
}

export type ModelsService = ReturnType<typeof createModelsService>;
