// Dataset identifiers and the names of what stores them. Pure functions.
//
// A dataset is `<namespace>.<layer>.<table>`: the
// namespace and the table are [A-Za-z0-9_]; the layer is the tenant that owns
// it (its alias) or a shared layer ([A-Za-z0-9_], never a tenant alias: it
// holds an underscore or a capital, e.g. `raw.shared_data.countries`).
// Anything else is a 400 that names the segment.
import { createHash } from 'node:crypto';
import { badRequest, isValidTenantAlias } from 'agent-platform/sdk';

export const NAMESPACES = ['raw', 'derived', 'registry', 'sandbox'] as const;
export type Namespace = (typeof NAMESPACES)[number];

const SEGMENT = /^[A-Za-z0-9_]+$/;
/** PostgreSQL truncates identifiers past 63 bytes. */
const MAX_IDENTIFIER_BYTES = 63;

export interface DatasetName {
  id: string;
  namespace: string;
  layer: string;
  table: string;
}

export function isNamespace(value: string): value is Namespace {
  return (NAMESPACES as readonly string[]).includes(value);
}

/** A layer that belongs to a tenant (its alias); any other layer is shared. */
export function isTenantLayer(layer: string): boolean {
  return isValidTenantAlias(layer);
}

function invalid(message: string) {
  return badRequest(message, 'DATASET_ID_INVALID');
}

/** Parses a dataset identifier; a malformed one is a 400 DATASET_ID_INVALID. */
export function parseDatasetId(id: string): DatasetName {
  const parts = id.split('.');
  if (parts.length !== 3) throw invalid(`A dataset id is <namespace>.<tenant_or_layer>.<table>: "${id.slice(0, 200)}" has ${parts.length} segment(s)`);
  const [namespace, layer, table] = parts as [string, string, string];
  if (!SEGMENT.test(namespace) || namespace.length > 32) throw invalid('The namespace segment of a dataset id may hold only [A-Za-z0-9_] (1 to 32 characters)');
  if (!(SEGMENT.test(layer) || isTenantLayer(layer)) || layer.length > 64) {
    throw invalid('The middle segment of a dataset id is a tenant alias or a layer of [A-Za-z0-9_] (1 to 64 characters)');
  }
  if (!SEGMENT.test(table) || Buffer.byteLength(table) > MAX_IDENTIFIER_BYTES) throw invalid('The table segment of a dataset id may hold only [A-Za-z0-9_] (1 to 63 characters)');
  return { id, namespace, layer, table };
}

export function datasetIdOf(namespace: string, layer: string, table: string): string {
  return `${namespace}.${layer}.${table}`;
}

/** A table segment made from any name (a stream's): [A-Za-z0-9_], at most 63 characters, never empty. */
export function tableSegmentOf(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'stream';
  if (cleaned.length <= MAX_IDENTIFIER_BYTES) return cleaned;
  return `${cleaned.slice(0, 50)}_${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

/**
 * The table inside the namespace's schema: `<layer>.<table>` as one quoted
 * identifier when it fits PostgreSQL's 63 bytes (readable in psql:
 * raw."acme.orders"), else a name derived from the dataset id.
 */
export function physicalTableOf(name: DatasetName): string {
  const readable = `${name.layer}.${name.table}`;
  if (Buffer.byteLength(readable) <= MAX_IDENTIFIER_BYTES) return readable;
  return `d_${createHash('sha256').update(name.id).digest('hex').slice(0, 40)}`;
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** schema."table", both quoted. */
export function qualified(namespace: Namespace | string, table: string): string {
  return `${quoteIdent(namespace)}.${quoteIdent(table)}`;
}

/** The system columns of every lake table: no property may take their names. */
export const SYSTEM_COLUMNS = ['_tenant_id', '_snapshot_from', '_snapshot_to'] as const;

/**
 * The column a property is stored in: its own name when PostgreSQL can hold
 * it as is (at most 63 bytes, no NUL, not a system column, not taken),
 * otherwise a cleaned name with a hash of the property's.
 */
export function columnNameFor(property: string, taken: Set<string>): string {
  const fits = Buffer.byteLength(property) <= MAX_IDENTIFIER_BYTES && property.length > 0 && !property.includes('\u0000')
    && !property.startsWith('_snapshot') && property !== '_tenant_id';
  if (fits && !taken.has(property)) return property;
  const hash = createHash('sha256').update(property).digest('hex').slice(0, 10);
  const base = property.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+/, '').slice(0, 40) || 'col';
  let candidate = `${base}_${hash}`;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}_${hash}_${n}`;
  return candidate;
}
