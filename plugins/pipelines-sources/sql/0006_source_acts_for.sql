-- Who a source's function calls act for (plugins/README.md, "Calling functions
-- for a person"): the person who created the source or last changed its
-- configuration, as {kind: user|super_admin|service, sub}. Their roles are
-- read from the user directory at every call. Null on sources made before
-- this column: created_by stands for the person then.
ALTER TABLE pipeline_sources ADD COLUMN acts_for jsonb;
