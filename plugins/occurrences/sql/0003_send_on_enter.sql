-- Templates sent by themselves: when an occurrence enters a state (its
-- creation in the initial state, or a transition), every template with
-- send_on_enter whose states and type_ids match is applied in the same
-- transaction. The partial index finds a tenant's few such templates.
ALTER TABLE occurrence_templates ADD COLUMN send_on_enter boolean NOT NULL DEFAULT false;
CREATE INDEX occurrence_templates_on_enter ON occurrence_templates (tenant_id) WHERE send_on_enter;
