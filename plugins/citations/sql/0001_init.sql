-- Citations plugin: citation records (spec 2.3) and the provenance of what
-- each execution context was shown.
--
-- A citation holds no foreign key to a chunk, revision or document: it
-- outlives them (spec 2.3), keeping a snapshot of the document's name.
CREATE TABLE citations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  -- Creation order: the key of keyset pages (stable while rows are added).
  seq bigint GENERATED ALWAYS AS IDENTITY,
  chunk_id uuid NOT NULL,
  revision_id text NOT NULL,
  document_id uuid,
  collection_id integer,
  document_name text NOT NULL,
  execution_context_type text NOT NULL,
  execution_context_id text NOT NULL,
  -- The client the context acted for (a chat session's client), when known:
  -- the chat citation status endpoint answers only that client's API keys.
  client_id integer,
  quoted_text text,
  page integer,
  section text,
  -- Whether the chunk had been shown to the context before the citation was
  -- made; null where provenance does not apply (a direct function call).
  -- Decided once, at creation, so pruning old provenance changes nothing.
  shown_to_context boolean,
  verification_status text NOT NULL
    CHECK (verification_status IN ('verified', 'failed', 'pending', 'unverified', 'out_of_provenance')),
  match_type text CHECK (match_type IN ('exact', 'normalized', 'fuzzy', 'not_found')),
  match_score double precision,
  matched_span_start integer,
  matched_span_end integer,
  verified_at timestamptz,
  verified_by_context_type text,
  verified_by_context_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((matched_span_start IS NULL) = (matched_span_end IS NULL)),
  CHECK (matched_span_start IS NULL OR (matched_span_start >= 0 AND matched_span_end >= matched_span_start))
);
CREATE UNIQUE INDEX citations_seq_idx ON citations (tenant_id, seq DESC);
CREATE INDEX citations_context_idx ON citations (tenant_id, execution_context_type, execution_context_id, seq DESC);
CREATE INDEX citations_chunk_idx ON citations (tenant_id, chunk_id, revision_id, seq DESC);
CREATE INDEX citations_document_idx ON citations (tenant_id, document_id, seq DESC);
CREATE INDEX citations_collection_idx ON citations (tenant_id, collection_id, seq DESC);
CREATE INDEX citations_status_idx ON citations (tenant_id, verification_status, seq DESC);
CREATE INDEX citations_created_idx ON citations (tenant_id, created_at DESC);
-- document_name filters are case-insensitive partial matches (ILIKE '%…%').
CREATE INDEX citations_document_name_idx ON citations USING gin (document_name gin_trgm_ops);
SELECT platform_enable_tenant_rls('citations');

-- Which chunks each execution context was shown by a search or read function
-- (recorded by an observer of successful function calls). One row per
-- context and chunk, with when it was first shown; pruned after a retention
-- period (citations keep their verdict in shown_to_context).
CREATE TABLE citation_provenance (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  context_type text NOT NULL,
  context_id text NOT NULL,
  chunk_id uuid NOT NULL,
  revision_id text NOT NULL,
  function_name text NOT NULL,
  first_shown_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, context_type, context_id, chunk_id)
);
CREATE INDEX citation_provenance_age_idx ON citation_provenance (tenant_id, first_shown_at);
SELECT platform_enable_tenant_rls('citation_provenance');
