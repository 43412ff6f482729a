// The lakehouse's manifest options (joi: validated at boot, for the CLI too).
import Joi from 'joi';

export const optionsSchema = Joi.object({
  /** PIPELINES_SNAPSHOT_RETENTION: snapshots kept per dataset; older ones and the row versions only they needed are vacuumed. */
  snapshotRetention: Joi.number().integer().min(1).max(100_000).default(20)
    .description('Snapshots kept per lake dataset; older ones, and the row versions only they needed, are vacuumed after a write'),
  /** Rows a dataset preview returns at most (its `limit`). */
  previewMaxRows: Joi.number().integer().min(1).max(10_000).default(1000)
    .description('Most rows a dataset preview returns'),
});

export interface LakehouseOptions {
  snapshotRetention: number;
  previewMaxRows: number;
}
