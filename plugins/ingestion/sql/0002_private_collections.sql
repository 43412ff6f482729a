-- Private collections (issue 17, embed uploads): a collection may belong to
-- one execution context, named by `scope` (`chat_session:<session id>`). It is
-- never listed to the tenant's other surfaces (collections, documents,
-- GraphQL), never searched outside that context, and is deleted with it.
-- NULL: an ordinary collection of the tenant. (Numbered 0003: 0002 is kept
-- for the ingestion reshaping that runs beside this change.)
ALTER TABLE ingestion_collections ADD COLUMN scope text CHECK (scope IS NULL OR char_length(scope) BETWEEN 1 AND 200);
CREATE UNIQUE INDEX ingestion_collections_scope_idx ON ingestion_collections (tenant_id, scope) WHERE scope IS NOT NULL;
