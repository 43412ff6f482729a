// What a source pattern (a connector) is: a configuration schema, discovery of
// streams, and a reader of one stream. Built-in patterns live beside this
// file; partner plugins add theirs through the `pipelines-sources.patterns` extension point.
import type { LakeType, WriteSource } from '../../lakehouse/api.ts';

export type JsonSchemaObject = Record<string, unknown>;

/** A stream as discovery reports it (the body of refresh-schema is a list of these). */
export interface DiscoveredStream {
  name: string;
  /** A real upstream container (a database schema); null for namespace-less API streams. */
  namespace: string | null;
  /** JSON Schema of a record: {type: 'object', properties: {...}}. */
  schema: JsonSchemaObject;
  supported_sync_modes: ('full_refresh' | 'incremental')[];
  /** Keys the upstream declares (a primary-key constraint), used as the default primary key. */
  source_defined_primary_key?: string[];
}

export interface PatternContext {
  tenantId: string;
  /** The source's configuration with its credential values in place (never logged, never returned). */
  config: Record<string, unknown>;
  /** PIPELINES_ALLOW_PRIVATE_NETWORKS: whether loopback and private addresses may be reached. */
  allowPrivateNetworks: boolean;
  /** The guarded fetch (core.http.fetch) for HTTP patterns. */
  fetch: typeof fetch;
  /** The bytes of a file the tenant uploaded (POST /api/v1/sources/files); undefined for an unknown id or another tenant's. */
  readFile(fileId: string): Promise<Uint8Array | undefined>;
  /**
   * Calls a platform function for the person the source acts for (its creator,
   * or whoever last changed its configuration), with that person's roles in
   * the tenant now: 403 SOURCE_OWNER_FORBIDDEN when they may not call it.
   */
  callFunction(name: string, args: Record<string, unknown>): Promise<unknown>;
  signal: AbortSignal;
}

/** One stream to read, as configured on the source. */
export interface StreamRead {
  name: string;
  namespace: string | null;
  /** The dataset's columns (the stream's schema's properties, each with its column's type in the dataset), in order. */
  columns: { name: string; type: LakeType }[];
  syncMode: 'full_refresh' | 'incremental';
  cursorField: string | null;
  /** The stream's primary key (a reader that knows the upstream enforces it says so: uniqueKeys). */
  primaryKey: string[];
  /** The committed cursor of the last sync (incremental), as text. */
  cursor: string | null;
  /** Read rows whose cursor equals the last one again (append_dedup drops the repeats): no row sharing the cursor's value is ever lost. */
  inclusiveCursor: boolean;
}

export interface StreamReader {
  source: WriteSource;
  /** Whether the upstream guarantees unique primary keys (the write skips deduplicating the batch). */
  uniqueKeys?: boolean;
  /** Releases what the read holds (a connection); called after the write, whatever its outcome. */
  close(): Promise<void>;
}

export interface SourcePattern {
  /** `[a-z0-9_]{1,63}`, e.g. `postgres`. */
  id: string;
  name: string;
  description: string;
  /** JSON Schema of source_config; fields with `credential: true` or `type: "password"` are write-only credentials. */
  configSchema: JsonSchemaObject;
  discover(context: PatternContext): Promise<DiscoveredStream[]>;
  read(context: PatternContext, stream: StreamRead): Promise<StreamReader>;
}
