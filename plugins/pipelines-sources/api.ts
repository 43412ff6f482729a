// What the sources plugin exposes to other plugins
// (server.plugins['pipelines-sources'].api): partner plugins add source
// patterns (connectors). Others import only these types.
export type { DiscoveredStream, PatternContext, SourcePattern, StreamRead, StreamReader } from './patterns/types.ts';
import type { SourcePattern } from './patterns/types.ts';

export interface PipelineSourcesApi {
  /**
   * Adds a pattern (call it from your plugin's register, after this plugin's:
   * declare `dependencies: ['pipelines-sources']`). Its id must be new and
   * match [a-z0-9_]{1,63}; its configSchema's fields marked `credential: true`
   * or `type: "password"` are write-only credentials.
   */
  registerPattern(pattern: SourcePattern): void;
  /**
   * A pattern (a code pattern or a preset registered over HTTP) with its
   * configuration JSON Schema and its write-only credential fields, as
   * GET /patterns/{id} answers it (the same for every tenant); null when
   * there is none.
   */
  getPattern(id: string): Promise<SourcePatternRecord | null>;
}

export interface SourcePatternRecord {
  id: string;
  name: string;
  description: string;
  configSchema: Record<string, unknown>;
  credentialFields: string[];
}
