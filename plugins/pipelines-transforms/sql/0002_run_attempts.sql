-- The run job's attempt that owns a transform run (0: none yet, or an inline
-- run). A retried job (its worker died) takes the run over with a higher
-- attempt; only the owning attempt may end the run, so a run never ends twice.
ALTER TABLE transform_runs ADD COLUMN attempts integer NOT NULL DEFAULT 0;
