-- Ingestion plugin: collections, documents with their original bytes,
-- immutable revisions, chunks with full-text and vector indexes, the fuzzy
-- vocabulary, per-tenant quota slots, page images, sync sources.
-- Every table is tenant-owned (forced row-level security). Foreign keys between
-- tenant tables are composite (tenant_id, id), so a row can never point at
-- another tenant's row even though FK checks bypass row-level security.

CREATE TABLE ingestion_collections (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  parent_id integer,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  description text NOT NULL DEFAULT '',
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, id),
  FOREIGN KEY (tenant_id, parent_id) REFERENCES ingestion_collections (tenant_id, id)
);
-- Names are unique among siblings (case-insensitively); 0 stands for "no parent".
CREATE UNIQUE INDEX ingestion_collections_name_idx ON ingestion_collections (tenant_id, coalesce(parent_id, 0), lower(name));
CREATE INDEX ingestion_collections_parent_idx ON ingestion_collections (tenant_id, parent_id);
SELECT platform_enable_tenant_rls('ingestion_collections');

-- Sync sources: a server directory or a list of URLs, synced on a schedule.
CREATE TABLE ingestion_sync_sources (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('directory', 'urls')),
  collection_id integer NOT NULL,
  directory text,
  pattern text,
  recursive boolean NOT NULL DEFAULT true,
  urls jsonb,
  schedule text,
  timezone text NOT NULL DEFAULT 'UTC',
  active boolean NOT NULL DEFAULT true,
  last_sync_started_at timestamptz,
  last_sync_at timestamptz,
  last_sync_status text CHECK (last_sync_status IN ('running', 'succeeded', 'partial', 'failed')),
  last_sync_stats jsonb,
  last_sync_errors jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, id),
  UNIQUE (tenant_id, name),
  FOREIGN KEY (tenant_id, collection_id) REFERENCES ingestion_collections (tenant_id, id),
  CHECK ((kind = 'directory' AND directory IS NOT NULL) OR (kind = 'urls' AND urls IS NOT NULL))
);
SELECT platform_enable_tenant_rls('ingestion_sync_sources');

-- Original bytes, by content hash (bytea, not large objects: large objects live
-- outside any table, so row-level security could not guard them). Stored
-- uncompressed: most uploads (PDF, images, DOCX) are compressed already.
CREATE TABLE ingestion_blobs (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  content_hash text NOT NULL,
  size_bytes bigint NOT NULL,
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, content_hash)
);
ALTER TABLE ingestion_blobs ALTER COLUMN bytes SET STORAGE EXTERNAL;
SELECT platform_enable_tenant_rls('ingestion_blobs');

-- A document. `run_id` names the ingestion run in flight: a stage job carries
-- the run it belongs to and does nothing when it no longer matches (a retried
-- or superseded run). `latest_revision_id` is the latest successful revision,
-- the one read and search use.
CREATE TABLE ingestion_documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  collection_id integer NOT NULL,
  source_id integer,
  source_key text,
  name text NOT NULL,
  filename text NOT NULL,
  content_type text NOT NULL,
  size_bytes bigint NOT NULL,
  content_hash text NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  page_count integer,
  ingestion_status text NOT NULL DEFAULT 'pending'
    CHECK (ingestion_status IN ('pending', 'ingesting', 'ready', 'error')),
  stage text CHECK (stage IN ('validate', 'create_revision', 'parse_and_chunk', 'enrich', 'finalize', 'done')),
  progress_pct integer NOT NULL DEFAULT 0 CHECK (progress_pct BETWEEN 0 AND 100),
  error text,
  run_id uuid,
  run_revision_id uuid,
  latest_revision_id uuid,
  chunk_count integer NOT NULL DEFAULT 0,
  runs integer NOT NULL DEFAULT 0,
  started_at timestamptz,
  completed_at timestamptz,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, id),
  FOREIGN KEY (tenant_id, collection_id) REFERENCES ingestion_collections (tenant_id, id),
  FOREIGN KEY (tenant_id, source_id) REFERENCES ingestion_sync_sources (tenant_id, id) ON DELETE SET NULL (source_id)
);
CREATE INDEX ingestion_documents_collection_idx ON ingestion_documents (tenant_id, collection_id, created_at DESC, id);
CREATE INDEX ingestion_documents_status_idx ON ingestion_documents (tenant_id, ingestion_status, created_at);
CREATE INDEX ingestion_documents_completed_idx ON ingestion_documents (tenant_id, completed_at) WHERE completed_at IS NOT NULL;
CREATE UNIQUE INDEX ingestion_documents_source_key_idx ON ingestion_documents (tenant_id, source_id, source_key)
  WHERE source_id IS NOT NULL AND deleted_at IS NULL;
SELECT platform_enable_tenant_rls('ingestion_documents');

-- One row per ingestion run: immutable once it leaves `building` (trigger below).
CREATE TABLE ingestion_revisions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  document_id uuid NOT NULL,
  revision_number integer NOT NULL CHECK (revision_number > 0),
  status text NOT NULL DEFAULT 'building' CHECK (status IN ('building', 'ready', 'failed')),
  content_hash text NOT NULL,
  content_type text NOT NULL,
  size_bytes bigint NOT NULL,
  parser text,
  language text,
  text text,
  pages jsonb NOT NULL DEFAULT '[]',
  sections jsonb NOT NULL DEFAULT '[]',
  page_count integer,
  warnings jsonb NOT NULL DEFAULT '[]',
  enrichment jsonb NOT NULL DEFAULT '{}',
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  UNIQUE (tenant_id, id),
  UNIQUE (document_id, revision_number),
  FOREIGN KEY (tenant_id, document_id) REFERENCES ingestion_documents (tenant_id, id) ON DELETE CASCADE
);
SELECT platform_enable_tenant_rls('ingestion_revisions');

CREATE FUNCTION ingestion_revision_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'building' THEN
    RAISE EXCEPTION 'revision % is % and immutable', OLD.id, OLD.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER ingestion_revisions_immutable BEFORE UPDATE ON ingestion_revisions
  FOR EACH ROW EXECUTE FUNCTION ingestion_revision_immutable();

-- Chunks. `is_current` marks the chunks of each live document's latest
-- successful revision (flipped in finalize's and delete's transactions), so the
-- search indexes are partial on it and stay the size of the live corpus while
-- old revisions' chunks remain for citations. The text-search configuration is
-- per chunk (its detected language), and the tsvector is generated from it.
-- Embeddings have no fixed dimension in the column: each HNSW index is on an
-- expression cast to one dimension, partial on embedding_dims (see below).
CREATE TABLE ingestion_chunks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  revision_id uuid NOT NULL,
  document_id uuid NOT NULL,
  collection_id integer NOT NULL,
  ordinal integer NOT NULL,
  kind text NOT NULL DEFAULT 'text' CHECK (kind IN ('text', 'ocr', 'table', 'vision')),
  text text NOT NULL,
  page integer NOT NULL DEFAULT 0,
  section text,
  char_start integer NOT NULL,
  char_end integer NOT NULL,
  token_count integer NOT NULL,
  ts_config regconfig NOT NULL DEFAULT 'english',
  tsv tsvector GENERATED ALWAYS AS (to_tsvector(ts_config, text)) STORED,
  is_current boolean NOT NULL DEFAULT false,
  embedding vector,
  embedding_dims integer,
  embedding_model text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (revision_id, ordinal),
  FOREIGN KEY (tenant_id, revision_id) REFERENCES ingestion_revisions (tenant_id, id) ON DELETE CASCADE,
  CHECK (char_end >= char_start),
  CHECK ((embedding IS NULL) = (embedding_dims IS NULL))
);
CREATE INDEX ingestion_chunks_document_idx ON ingestion_chunks (tenant_id, document_id, revision_id);
CREATE INDEX ingestion_chunks_current_idx ON ingestion_chunks (tenant_id, collection_id) WHERE is_current;
-- fastupdate off: with GIN's pending list, new chunks wait (up to 4 MB) in an
-- unordered list that every search scans linearly until a vacuum merges it
-- (measured at 100k chunks: 135 ms per search with a full list, 17 ms
-- without). Ingestion writes are rare next to searches, so they pay instead.
CREATE INDEX ingestion_chunks_tsv_idx ON ingestion_chunks USING gin (tsv) WITH (fastupdate = off) WHERE is_current;
-- One HNSW (cosine) index per common embedding dimension; a deployment whose
-- configured dimension is not listed gets its index created at boot
-- (plugins/ingestion/embeddings/vector-index.ts), up to pgvector's 2000.
CREATE INDEX ingestion_chunks_hnsw_384 ON ingestion_chunks USING hnsw ((embedding::vector(384)) vector_cosine_ops)
  WHERE embedding_dims = 384 AND is_current;
CREATE INDEX ingestion_chunks_hnsw_768 ON ingestion_chunks USING hnsw ((embedding::vector(768)) vector_cosine_ops)
  WHERE embedding_dims = 768 AND is_current;
CREATE INDEX ingestion_chunks_hnsw_1024 ON ingestion_chunks USING hnsw ((embedding::vector(1024)) vector_cosine_ops)
  WHERE embedding_dims = 1024 AND is_current;
CREATE INDEX ingestion_chunks_hnsw_1536 ON ingestion_chunks USING hnsw ((embedding::vector(1536)) vector_cosine_ops)
  WHERE embedding_dims = 1536 AND is_current;
SELECT platform_enable_tenant_rls('ingestion_chunks');

-- Rendered page images kept for vision descriptions and page-image retrieval.
CREATE TABLE ingestion_page_images (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  revision_id uuid NOT NULL,
  document_id uuid NOT NULL,
  collection_id integer NOT NULL,
  page integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('text', 'drawing', 'table')),
  png bytea NOT NULL,
  is_current boolean NOT NULL DEFAULT false,
  embedding vector,
  embedding_dims integer,
  embedding_model text,
  PRIMARY KEY (revision_id, page),
  FOREIGN KEY (tenant_id, revision_id) REFERENCES ingestion_revisions (tenant_id, id) ON DELETE CASCADE
);
ALTER TABLE ingestion_page_images ALTER COLUMN png SET STORAGE EXTERNAL;
CREATE INDEX ingestion_page_images_current_idx ON ingestion_page_images (tenant_id, collection_id) WHERE is_current;
SELECT platform_enable_tenant_rls('ingestion_page_images');

-- The words seen in each tenant's chunks (lowercased), for fuzzy keyword
-- search: a query word the text never contains is widened to its nearest
-- vocabulary words by trigram similarity (pg_trgm) before full-text matching.
CREATE TABLE ingestion_terms (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  term text NOT NULL,
  PRIMARY KEY (tenant_id, term)
);
CREATE INDEX ingestion_terms_trgm_idx ON ingestion_terms USING gin (term gin_trgm_ops) WITH (fastupdate = off);
SELECT platform_enable_tenant_rls('ingestion_terms');

-- Keyword retrieval and fuzzy widening run through these two functions.
-- Why: under row-level security Postgres may not evaluate a non-leakproof
-- operator before the policy, and neither the full-text match (tsvector @@
-- tsquery) nor the trigram similarity (%) is leakproof; so in a tenant
-- transaction the GIN indexes cannot be used and every query scans all the
-- tenant's chunks (measured: 70-140 ms at 100k chunks against 8 ms with the
-- index). SECURITY DEFINER runs them as the migration role; each one filters
-- on the caller's tenant (app.tenant_id, exactly the policy's condition)
-- itself, and takes no tenant argument, so a caller reads nothing the policy
-- would not let it read.
CREATE FUNCTION ingestion_keyword_candidates(
  p_english tsquery, p_portuguese tsquery, p_collections integer[], p_max_matches integer, p_limit integer
) RETURNS TABLE (id uuid, rank real)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  SELECT m.id, ts_rank_cd(m.tsv, CASE WHEN m.ts_config = 'portuguese'::regconfig THEN p_portuguese ELSE p_english END, 1) AS rank
  FROM (
    SELECT c.id, c.tsv, c.ts_config FROM public.ingestion_chunks c
    WHERE c.tenant_id = current_setting('app.tenant_id', true)
      AND c.is_current
      AND ((c.ts_config = 'english'::regconfig AND c.tsv @@ p_english) OR (c.ts_config = 'portuguese'::regconfig AND c.tsv @@ p_portuguese))
      AND (p_collections IS NULL OR c.collection_id = ANY (p_collections))
    LIMIT p_max_matches
  ) m
  ORDER BY rank DESC, m.id
  LIMIT p_limit
$$;

CREATE FUNCTION ingestion_fuzzy_terms(p_words text[], p_min_similarity real, p_per_word integer)
RETURNS TABLE (word text, term text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  SELECT w.word, s.term FROM unnest(p_words) AS w (word)
  CROSS JOIN LATERAL (
    SELECT t.term FROM public.ingestion_terms t
    WHERE t.tenant_id = current_setting('app.tenant_id', true)
      AND NOT EXISTS (SELECT 1 FROM public.ingestion_terms e WHERE e.tenant_id = current_setting('app.tenant_id', true) AND e.term = w.word)
      AND t.term % w.word AND similarity(t.term, w.word) >= p_min_similarity
    ORDER BY similarity(t.term, w.word) DESC, t.term
    LIMIT p_per_word
  ) s
$$;

-- Per-tenant serialization point: quota checks lock this row (an upsert), so
-- two concurrent uploads can never both take the last slot.
CREATE TABLE ingestion_tenant_state (
  tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  touched_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('ingestion_tenant_state');

-- A slot per ingestion run in flight (INGESTION_MAX_CONCURRENT per tenant).
-- Released when the run ends; a slot older than INGESTION_QUOTA_TTL is stale
-- (its run died without ending) and no longer counts.
CREATE TABLE ingestion_quota_slots (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  document_id uuid NOT NULL,
  run_id uuid NOT NULL,
  acquired_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, document_id)
);
SELECT platform_enable_tenant_rls('ingestion_quota_slots');
