-- Console plugin: one-time sign-in links (`platform console link`). A link
-- names a user (and optionally the one tenant its token is limited to), lives
-- a few minutes and is exchanged once for an access token. Only the SHA-256
-- of the code is stored (the code is 256 random bits). The table is in its
-- own schema, which the tenant role is never granted: it is a credential
-- store of every tenant, read and written only by the platform's connection.
CREATE SCHEMA IF NOT EXISTS console;
REVOKE ALL ON SCHEMA console FROM PUBLIC;

CREATE TABLE console.link_codes (
  code_hash text PRIMARY KEY,
  sub text NOT NULL CHECK (char_length(sub) BETWEEN 1 AND 255),
  tenant text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX link_codes_expires_idx ON console.link_codes (expires_at);
