// What the sources plugin offers other plugins: its api (the patterns as
// GET /patterns/{id} shows them) and the extension point
// `pipelines-sources.patterns`, through which partner plugins add source
// patterns (connectors). Others import only these types.
export type { DiscoveredStream, PatternContext, SourcePattern, StreamRead, StreamReader } from './patterns/types.ts';
import type { SourcePattern } from './patterns/types.ts';

export interface PipelineSourcesApi {
  /**
   * A pattern (a code pattern or a preset registered over HTTP) with its
   * configuration JSON Schema and its write-only credential fields, as
   * GET /patterns/{id} answers it (the same for every tenant); null when
   * there is none.
   */
  getPattern(id: string): Promise<SourcePatternRecord | null>;
}

declare module 'agent-platform/sdk' {
  interface ExtensionPoints {
    /**
     * A source pattern: its id must be new and match [a-z0-9_]{1,63}; its
     * configSchema's fields marked `credential: true` or `type: "password"`
     * are write-only credentials.
     */
    'pipelines-sources.patterns': SourcePattern;
  }
}

export interface SourcePatternRecord {
  id: string;
  name: string;
  description: string;
  configSchema: Record<string, unknown>;
  credentialFields: string[];
}

// What this plugin exposes as `api` (what a plugin declaring it receives in register).
declare module '@hapi/hapi' {
  interface PluginProperties {
    'pipelines-sources': { api: PipelineSourcesApi };
  }
}
