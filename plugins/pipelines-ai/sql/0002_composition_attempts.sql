-- The compose job's attempt that owns an execution (0: none yet). A retried
-- job (its worker died or it expired) takes a running execution over with a
-- higher attempt; only the owning attempt may end it, so it ends once.
ALTER TABLE pipelines_ai_compositions ADD COLUMN attempts integer NOT NULL DEFAULT 0;
