-- Who the workflows a trigger starts act for (plugins/README.md, "Calling
-- functions for a person"): the person who created the trigger or last changed
-- it, as {kind: user|super_admin|service, sub}. Their ACTION steps call
-- functions with that person's roles at each call. Null on triggers made
-- before this column: their workflows call as the system principal.
ALTER TABLE triggers ADD COLUMN acts_for jsonb;
