-- Citizens' support of an existing report ("me too" instead of a duplicate).
-- support_count is what staff see; occurrence_supports holds one row per
-- occurrence and client (a hash of the client's address, never the address)
-- with the time it last counted, so a client counts once per window.
ALTER TABLE occurrences ADD COLUMN support_count integer NOT NULL DEFAULT 0 CHECK (support_count >= 0);

CREATE TABLE occurrence_supports (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  occurrence_id bigint NOT NULL,
  client_hash text NOT NULL,
  counted_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, occurrence_id, client_hash),
  FOREIGN KEY (tenant_id, occurrence_id) REFERENCES occurrences (tenant_id, id) ON DELETE CASCADE
);
SELECT platform_enable_tenant_rls('occurrence_supports');
