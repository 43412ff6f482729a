-- The backend pid and session tag of a running step's statement (the
-- transforms plugin's materialize reports them before the rows land), so a
-- cancel from any process stops that statement with pg_cancel_backend, and
-- only while the backend still carries the tag (pooled connections outlive steps).
ALTER TABLE pipeline_run_steps ADD COLUMN backend_pid integer, ADD COLUMN session_tag text;
