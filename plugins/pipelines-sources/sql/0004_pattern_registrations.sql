-- Patterns registered over HTTP (spec document 3, 4.2: /patterns/register and
-- /patterns/reconcile): presets of a built-in or plugin pattern (its reader),
-- with defaults for its configuration. Global: patterns serve every tenant.
CREATE TABLE pipeline_pattern_registrations (
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9_]{1,63}$'),
  base_pattern text NOT NULL,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
  -- Non-credential configuration values of the base pattern, applied as defaults.
  defaults jsonb NOT NULL DEFAULT '{}',
  -- register: by the admin secret; reconcile: owned by the registry webhook (a reconcile removes what it no longer lists).
  managed_by text NOT NULL CHECK (managed_by IN ('register', 'reconcile')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Only the platform's own connection (the owner) reads and writes it: the
-- tenant role gets table rights in public, and row-level security without a
-- policy leaves it no row to see or write (tenant SQL runs as that role).
ALTER TABLE pipeline_pattern_registrations ENABLE ROW LEVEL SECURITY;
