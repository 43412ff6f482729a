// What the lakehouse's dataset routes answer (the fields the section reads),
// and the words and links shared by the section's parts.
import type { Locale } from '../../i18n.ts';
import type { DatasetsStrings } from './strings.ts';

export interface Producer { kind: string; id: string; name: string | null }
export interface Column { name: string; type: string }

export interface Dataset {
  id: string;
  namespace: string;
  layer: string;
  table: string;
  shared: boolean;
  owned: boolean;
  producer: Producer;
  columns: Column[];
  primary_key: string[];
  row_count: number;
  snapshot_count: number;
  latest_snapshot_id_exact: string | null;
  updated_at: string;
}

export interface DatasetList { items: Dataset[]; total: number; limit: number; offset: number }

export interface Snapshot {
  snapshot_id_exact: string;
  operation: string;
  rows_added: number;
  rows_removed: number;
  row_count: number;
  created_at: string;
}

export interface Preview { snapshot_id_exact: string | null; columns: Column[]; rows: Record<string, unknown>[]; limit: number; offset: number }

export interface LinkedDataset { dataset_id: string; exists: boolean; producer: Producer | null }
export interface Lineage { writers: (Producer & { last_written_at: string | null })[]; upstream: LinkedDataset[]; downstream: LinkedDataset[] }

export const SECTION_PATH = '/console/datasets';

/** A dataset's own page: /console/datasets/<namespace>/<layer>/<table> (the shell keeps a section's sub-path). */
export function datasetPath(datasetId: string): string {
  return `${SECTION_PATH}/${datasetId.split('.').map(encodeURIComponent).join('/')}`;
}

/** "Transform orders_clean": a producer in words. */
export function writerLabel(t: DatasetsStrings, producer: Producer): string {
  return `${t.kinds[producer.kind] ?? producer.kind} ${producer.name ?? producer.id}`;
}

export function when(locale: Locale, value: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(value));
}

/** Asks the section to open a dataset (bubbles out of the parts' shadow roots). */
export function openDatasetEvent(datasetId: string): CustomEvent<string> {
  return new CustomEvent('open-dataset', { detail: datasetId, bubbles: true, composed: true });
}
