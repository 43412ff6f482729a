// A pattern's parameter schema, read through its owning plugin's api: a
// transform pattern's parameters (pipelines-transforms), a source pattern's
// configuration without its credential fields (pipelines-sources), which are
// never suggested. Patterns are the same for every tenant; the AI route's own
// role (member) is the patterns routes' one.
import { badRequest, notFound } from 'agent-platform/sdk';
import type { AiPeers } from '../services/context.ts';

export async function patternSchema(peers: AiPeers, kind: 'transform' | 'source', id: string): Promise<Record<string, unknown>> {
  if (kind === 'transform') {
    const pattern = await peers.transforms().getTransformPattern(id);
    if (!pattern) throw notFound(`No transform pattern "${id}"`, 'PATTERN_NOT_FOUND');
    return checked(kind, id, pattern.parametersSchema);
  }
  const pattern = await peers.sources().getPattern(id);
  if (!pattern) throw notFound(`No source pattern "${id}"`, 'PATTERN_NOT_FOUND');
  const schema = checked(kind, id, pattern.configSchema);
  const credentials = new Set(pattern.credentialFields);
  const properties = Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, unknown>).filter(([name]) => !credentials.has(name)));
  return { ...schema, properties, required: ((schema.required as string[] | undefined) ?? []).filter((name) => !credentials.has(name)) };
}

function checked(kind: string, id: string, schema: unknown): Record<string, unknown> {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw badRequest(`The ${kind} pattern "${id}" declares no parameter schema`, 'PARAMS_SCHEMA_INVALID');
  return schema as Record<string, unknown>;
}
