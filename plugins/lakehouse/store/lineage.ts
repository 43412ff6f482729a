// Lineage from the lake's own records: who wrote a dataset (its registered
// producer and the producer each kept snapshot names in its summary), what
// its snapshots were computed from (`summary.inputs`, the datasets a
// transform or pipeline step read) and which datasets' snapshots name it as
// an input. Tenant transactions: row-level security picks the rows (the
// tenant's own and the shared ones), so another tenant's readers never show.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

export interface ProducerRow {
  kind: string;
  id: string;
  name: string | null;
  last_written_at: Date | null;
}

export const lineageStore = {
  /** The producers named by the dataset's kept snapshots, with the time of the newest snapshot each made. */
  snapshotProducers: async (trx: TenantTransaction, ref: number): Promise<ProducerRow[]> =>
    (await sql<ProducerRow>`
      SELECT summary->'producer'->>'kind' AS kind, summary->'producer'->>'id' AS id,
             max(summary->'producer'->>'name') AS name, max(created_at) AS last_written_at
      FROM lake_snapshots
      WHERE dataset_ref = ${ref} AND jsonb_typeof(summary->'producer') = 'object'
        AND summary->'producer'->>'kind' IS NOT NULL AND summary->'producer'->>'id' IS NOT NULL
      GROUP BY 1, 2 ORDER BY 4 DESC`.execute(trx)).rows,

  /** When the dataset's newest kept snapshot was made (null without one). */
  lastWritten: async (trx: TenantTransaction, ref: number): Promise<Date | null> =>
    (await sql<{ at: Date | null }>`SELECT max(created_at) AS at FROM lake_snapshots WHERE dataset_ref = ${ref}`.execute(trx)).rows[0]?.at ?? null,

  /** The dataset ids the dataset's kept snapshots were computed from. */
  inputs: async (trx: TenantTransaction, ref: number): Promise<string[]> =>
    (await sql<{ dataset_id: string }>`
      SELECT DISTINCT input AS dataset_id
      FROM lake_snapshots, jsonb_array_elements_text(CASE WHEN jsonb_typeof(summary->'inputs') = 'array' THEN summary->'inputs' ELSE '[]'::jsonb END) AS input
      WHERE dataset_ref = ${ref}
      ORDER BY 1`.execute(trx)).rows.map((row) => row.dataset_id),

  /** Other datasets whose kept snapshots name `datasetId` as an input. */
  readers: async (trx: TenantTransaction, ref: number, datasetId: string): Promise<string[]> =>
    (await sql<{ dataset_id: string }>`
      SELECT DISTINCT d.dataset_id
      FROM lake_snapshots s JOIN lake_datasets d ON d.id = s.dataset_ref
      WHERE s.summary->'inputs' @> jsonb_build_array(${datasetId}::text) AND d.id <> ${ref}
      ORDER BY 1`.execute(trx)).rows.map((row) => row.dataset_id),

  /** The registered producers of the given datasets that the tenant sees. */
  producersOf: async (trx: TenantTransaction, datasetIds: string[]) => {
    if (!datasetIds.length) return [];
    return trx.selectFrom('lake_datasets').select(['dataset_id', 'producer_kind', 'producer_id', 'producer_name'])
      .where('dataset_id', 'in', datasetIds).execute();
  },
};
