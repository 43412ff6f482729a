-- Every key of an ingestion table starts with tenant_id, the column a
-- distributed PostgreSQL shards tenant tables by: primary keys become
-- (tenant_id, ...), a revision's number is unique per (tenant_id,
-- document_id) and a chunk's ordinal per (tenant_id, revision_id). The
-- (tenant_id, id) unique keys that the composite foreign keys referenced are
-- now the primary keys: the foreign keys move to them, with the same ON
-- DELETE behaviour, and the duplicates go.
-- Indexes: every query of these tables runs in a tenant transaction
-- (row-level security adds tenant_id; the keyword-search functions filter on
-- the caller's tenant themselves), so the new keys serve the lookups by id;
-- no plain index on id is kept.
ALTER TABLE ingestion_collections DROP CONSTRAINT ingestion_collections_tenant_id_parent_id_fkey;
ALTER TABLE ingestion_sync_sources DROP CONSTRAINT ingestion_sync_sources_tenant_id_collection_id_fkey;
ALTER TABLE ingestion_documents DROP CONSTRAINT ingestion_documents_tenant_id_collection_id_fkey;
ALTER TABLE ingestion_documents DROP CONSTRAINT ingestion_documents_tenant_id_source_id_fkey;
ALTER TABLE ingestion_revisions DROP CONSTRAINT ingestion_revisions_tenant_id_document_id_fkey;
ALTER TABLE ingestion_chunks DROP CONSTRAINT ingestion_chunks_tenant_id_revision_id_fkey;
ALTER TABLE ingestion_page_images DROP CONSTRAINT ingestion_page_images_tenant_id_revision_id_fkey;

ALTER TABLE ingestion_collections DROP CONSTRAINT ingestion_collections_tenant_id_id_key;
ALTER TABLE ingestion_collections DROP CONSTRAINT ingestion_collections_pkey;
ALTER TABLE ingestion_collections ADD CONSTRAINT ingestion_collections_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ingestion_sync_sources DROP CONSTRAINT ingestion_sync_sources_tenant_id_id_key;
ALTER TABLE ingestion_sync_sources DROP CONSTRAINT ingestion_sync_sources_pkey;
ALTER TABLE ingestion_sync_sources ADD CONSTRAINT ingestion_sync_sources_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ingestion_documents DROP CONSTRAINT ingestion_documents_tenant_id_id_key;
ALTER TABLE ingestion_documents DROP CONSTRAINT ingestion_documents_pkey;
ALTER TABLE ingestion_documents ADD CONSTRAINT ingestion_documents_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ingestion_revisions DROP CONSTRAINT ingestion_revisions_tenant_id_id_key;
ALTER TABLE ingestion_revisions DROP CONSTRAINT ingestion_revisions_pkey;
ALTER TABLE ingestion_revisions ADD CONSTRAINT ingestion_revisions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ingestion_revisions DROP CONSTRAINT ingestion_revisions_document_id_revision_number_key;
ALTER TABLE ingestion_revisions ADD CONSTRAINT ingestion_revisions_document_id_revision_number_key UNIQUE (tenant_id, document_id, revision_number);
ALTER TABLE ingestion_chunks DROP CONSTRAINT ingestion_chunks_pkey;
ALTER TABLE ingestion_chunks ADD CONSTRAINT ingestion_chunks_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ingestion_chunks DROP CONSTRAINT ingestion_chunks_revision_id_ordinal_key;
ALTER TABLE ingestion_chunks ADD CONSTRAINT ingestion_chunks_revision_id_ordinal_key UNIQUE (tenant_id, revision_id, ordinal);
ALTER TABLE ingestion_page_images DROP CONSTRAINT ingestion_page_images_pkey;
ALTER TABLE ingestion_page_images ADD CONSTRAINT ingestion_page_images_pkey PRIMARY KEY (tenant_id, revision_id, page);

ALTER TABLE ingestion_collections ADD CONSTRAINT ingestion_collections_tenant_id_parent_id_fkey
  FOREIGN KEY (tenant_id, parent_id) REFERENCES ingestion_collections (tenant_id, id);
ALTER TABLE ingestion_sync_sources ADD CONSTRAINT ingestion_sync_sources_tenant_id_collection_id_fkey
  FOREIGN KEY (tenant_id, collection_id) REFERENCES ingestion_collections (tenant_id, id);
ALTER TABLE ingestion_documents ADD CONSTRAINT ingestion_documents_tenant_id_collection_id_fkey
  FOREIGN KEY (tenant_id, collection_id) REFERENCES ingestion_collections (tenant_id, id);
ALTER TABLE ingestion_documents ADD CONSTRAINT ingestion_documents_tenant_id_source_id_fkey
  FOREIGN KEY (tenant_id, source_id) REFERENCES ingestion_sync_sources (tenant_id, id) ON DELETE SET NULL (source_id);
ALTER TABLE ingestion_revisions ADD CONSTRAINT ingestion_revisions_tenant_id_document_id_fkey
  FOREIGN KEY (tenant_id, document_id) REFERENCES ingestion_documents (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE ingestion_chunks ADD CONSTRAINT ingestion_chunks_tenant_id_revision_id_fkey
  FOREIGN KEY (tenant_id, revision_id) REFERENCES ingestion_revisions (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE ingestion_page_images ADD CONSTRAINT ingestion_page_images_tenant_id_revision_id_fkey
  FOREIGN KEY (tenant_id, revision_id) REFERENCES ingestion_revisions (tenant_id, id) ON DELETE CASCADE;
