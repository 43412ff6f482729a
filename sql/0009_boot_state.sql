-- What the boot last applied, by name: the fingerprint of the statements and
-- of the catalog objects (with their privileges) they apply to. A boot runs
-- those statements only when the fingerprint it computes differs from the
-- stored one. Tenant-independent; the platform's own connection only reads
-- and writes it, never the tenant role.
CREATE TABLE platform_boot_state (
  name text PRIMARY KEY,
  fingerprint text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);
