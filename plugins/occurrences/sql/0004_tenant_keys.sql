-- Every key of an occurrences table starts with tenant_id, the column a
-- distributed PostgreSQL shards tenant tables by: primary keys become
-- (tenant_id, id). The (tenant_id, id) unique keys that the composite foreign
-- keys referenced are now the primary keys: the foreign keys move to them,
-- with the same ON DELETE behaviour, and the duplicates go.
-- Indexes: every query of these tables runs in a tenant transaction
-- (row-level security adds tenant_id; the public tracking route names its
-- tenant), so the new primary keys serve the lookups by id; no plain index on
-- id is kept.
ALTER TABLE occurrences DROP CONSTRAINT occurrences_tenant_id_type_id_fkey;
ALTER TABLE occurrences DROP CONSTRAINT occurrences_tenant_id_duplicate_of_fkey;
ALTER TABLE occurrence_history DROP CONSTRAINT occurrence_history_tenant_id_occurrence_id_fkey;
ALTER TABLE occurrence_messages DROP CONSTRAINT occurrence_messages_tenant_id_occurrence_id_fkey;
ALTER TABLE occurrence_supports DROP CONSTRAINT occurrence_supports_tenant_id_occurrence_id_fkey;

ALTER TABLE occurrence_types DROP CONSTRAINT occurrence_types_tenant_id_id_key;
ALTER TABLE occurrence_types DROP CONSTRAINT occurrence_types_pkey;
ALTER TABLE occurrence_types ADD CONSTRAINT occurrence_types_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE occurrences DROP CONSTRAINT occurrences_tenant_id_id_key;
ALTER TABLE occurrences DROP CONSTRAINT occurrences_pkey;
ALTER TABLE occurrences ADD CONSTRAINT occurrences_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE occurrence_history DROP CONSTRAINT occurrence_history_pkey;
ALTER TABLE occurrence_history ADD CONSTRAINT occurrence_history_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE occurrence_templates DROP CONSTRAINT occurrence_templates_pkey;
ALTER TABLE occurrence_templates ADD CONSTRAINT occurrence_templates_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE occurrence_messages DROP CONSTRAINT occurrence_messages_pkey;
ALTER TABLE occurrence_messages ADD CONSTRAINT occurrence_messages_pkey PRIMARY KEY (tenant_id, id);

ALTER TABLE occurrences ADD CONSTRAINT occurrences_tenant_id_type_id_fkey
  FOREIGN KEY (tenant_id, type_id) REFERENCES occurrence_types (tenant_id, id);
ALTER TABLE occurrences ADD CONSTRAINT occurrences_tenant_id_duplicate_of_fkey
  FOREIGN KEY (tenant_id, duplicate_of) REFERENCES occurrences (tenant_id, id);
ALTER TABLE occurrence_history ADD CONSTRAINT occurrence_history_tenant_id_occurrence_id_fkey
  FOREIGN KEY (tenant_id, occurrence_id) REFERENCES occurrences (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE occurrence_messages ADD CONSTRAINT occurrence_messages_tenant_id_occurrence_id_fkey
  FOREIGN KEY (tenant_id, occurrence_id) REFERENCES occurrences (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE occurrence_supports ADD CONSTRAINT occurrence_supports_tenant_id_occurrence_id_fkey
  FOREIGN KEY (tenant_id, occurrence_id) REFERENCES occurrences (tenant_id, id) ON DELETE CASCADE;
