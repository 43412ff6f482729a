// What /readyz says about ingestion (under details.ingestion): which embedder
// is configured (or that search is keyword only), OCR, vision, parsers. Also
// served alone at GET /readyz/ingestion. A vision feature switched on without
// its endpoint does nothing: besides saying so here, the boot logs one
// warning line per such setting (warnIncompleteSettings).
import type { Server } from '@hapi/hapi';
import { addReadinessDetails, type CoreServices } from 'agent-platform/sdk';
import type { IngestionSettings } from '../config/settings.ts';

/** Settings that are switched on but cannot work: the missing setting, and what is therefore not done. */
function incompleteSettings(settings: IngestionSettings): { setting: string; missing: string; consequence: string }[] {
  const found = [];
  if (settings.vlm.enabled && !settings.vlm.baseUrl) {
    found.push({ setting: 'INGESTION_VLM_ENABLED', missing: 'INGESTION_VLM_BASE_URL', consequence: 'drawing pages are not described' });
  }
  if (settings.visionRetrieval.enabled && !settings.visionRetrieval.active) {
    found.push({ setting: 'INGESTION_VISION_RETRIEVAL_ENABLED', missing: 'INGESTION_IMAGE_EMBEDDING_BASE_URL', consequence: 'page images are not embedded or searched' });
  }
  return found;
}

export function warnIncompleteSettings(core: CoreServices, settings: IngestionSettings): void {
  for (const { setting, missing, consequence } of incompleteSettings(settings)) {
    core.logger.warn({ plugin: 'ingestion', setting, missing }, `ingestion: ${setting} is true but ${missing} is not set: ${consequence}`);
  }
}

export function readinessDetails(settings: IngestionSettings) {
  const { embedding } = settings;
  return {
    search: embedding.provider === 'none' ? 'keyword only (no embedder configured)' : 'hybrid (keyword + vector)',
    embeddings: embedding.provider === 'none'
      ? 'none'
      : embedding.provider === 'local'
        ? `local model ${embedding.pulledModel ? `${embedding.pulledModel} (pulled) ` : ''}at ${embedding.modelPath}`
        : `endpoint, model ${embedding.model}, ${embedding.dims} dims`,
    ocr: settings.ocrEnabled ? 'enabled' : 'disabled',
    vision_descriptions: settings.vlm.enabled ? (settings.vlm.baseUrl ? `enabled (${settings.vlm.model})` : 'enabled but INGESTION_VLM_BASE_URL is not set') : 'disabled',
    vision_retrieval: !settings.visionRetrieval.enabled ? 'disabled'
      : settings.visionRetrieval.active ? `enabled (page images embedded by ${settings.visionRetrieval.model}, ${settings.visionRetrieval.dims} dims)`
        : 'enabled but INGESTION_IMAGE_EMBEDDING_BASE_URL is not set (ignored)',
    parsers: settings.unstructured.url ? 'unstructured API for PDF, DOCX, PPTX, images; local for the rest' : 'local',
  };
}

export function readinessCheck(server: Server, settings: IngestionSettings): void {
  addReadinessDetails(server, 'ingestion', () => readinessDetails(settings));
  server.route({
    method: 'GET', path: '/readyz/ingestion',
    options: { auth: false, tags: ['api', 'operations'], description: 'Ingestion readiness details: embedder (or keyword only), OCR, vision, parsers' },
    handler: () => ({ status: 'ready', details: readinessDetails(settings) }),
  });
}
