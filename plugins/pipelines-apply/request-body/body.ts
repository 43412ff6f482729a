// The apply request body: JSON (the envelope) or YAML (Content-Type
// application/yaml): either one document holding the envelope (a map with
// `docs`), or a stream of documents (`---` separated) applied with the
// envelope's defaults (allow_deprecate and live_ontology false). Read raw by
// the route and turned into the envelope here, before joi validates it.
import { badRequest } from 'agent-platform/sdk';
import type { YamlReader } from './yaml-reader.ts';

export const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml'];
export const BODY_TYPES = ['application/json', ...YAML_TYPES];

function text(raw: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw badRequest('The body is not valid UTF-8 text', 'APPLY_BODY_INVALID');
  }
}

export async function parseBody(raw: Buffer | null | undefined, contentType: string, maxDocuments: number, yaml: YamlReader): Promise<unknown> {
  if (!raw || raw.length === 0) throw badRequest('The body is empty: send the apply envelope ({docs: [...]})', 'APPLY_BODY_INVALID');
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (YAML_TYPES.includes(type)) {
    const docs = await yaml.read(text(raw), maxDocuments);
    const only = docs.length === 1 ? docs[0] : undefined;
    const isEnvelope = only !== null && typeof only === 'object' && !Array.isArray(only) && 'docs' in only;
    return isEnvelope ? only : { docs };
  }
  try {
    return JSON.parse(text(raw));
  } catch (error) {
    if ((error as { isBoom?: boolean }).isBoom) throw error;
    // JSON.parse's message quotes the body: never echoed.
    throw badRequest('The body is not valid JSON', 'APPLY_BODY_INVALID');
  }
}
