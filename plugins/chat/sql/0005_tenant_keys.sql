-- Every key of a chat table starts with tenant_id, the column a distributed
-- PostgreSQL shards tenant tables by: primary keys become (tenant_id, ...),
-- the one-unfinished-turn-per-session index is per (tenant_id, session_id),
-- and the foreign keys between chat tables are composite, with the same
-- ON DELETE CASCADE. Foreign keys to clients stay on client_id alone: clients
-- is a reference table (its client_key is unique across tenants).
-- Indexes: every query of these tables runs in a tenant transaction (row-level
-- security adds tenant_id), so the new primary keys serve the lookups by id;
-- no plain index on id is kept, and none is added on the hot path.
ALTER TABLE chat_messages DROP CONSTRAINT chat_messages_session_id_fkey;
ALTER TABLE chat_feedback DROP CONSTRAINT chat_feedback_session_id_fkey;
ALTER TABLE chat_feedback DROP CONSTRAINT chat_feedback_message_id_fkey;
ALTER TABLE chat_turns DROP CONSTRAINT chat_turns_session_id_fkey;
ALTER TABLE chat_turn_frames DROP CONSTRAINT chat_turn_frames_turn_id_fkey;

ALTER TABLE chat_sessions DROP CONSTRAINT chat_sessions_pkey;
ALTER TABLE chat_sessions ADD CONSTRAINT chat_sessions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE chat_messages DROP CONSTRAINT chat_messages_pkey;
ALTER TABLE chat_messages ADD CONSTRAINT chat_messages_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE chat_feedback DROP CONSTRAINT chat_feedback_pkey;
ALTER TABLE chat_feedback ADD CONSTRAINT chat_feedback_pkey PRIMARY KEY (tenant_id, message_id);
ALTER TABLE chat_turns DROP CONSTRAINT chat_turns_pkey;
ALTER TABLE chat_turns ADD CONSTRAINT chat_turns_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE chat_turn_frames DROP CONSTRAINT chat_turn_frames_pkey;
ALTER TABLE chat_turn_frames ADD CONSTRAINT chat_turn_frames_pkey PRIMARY KEY (tenant_id, turn_id, first_seq);
ALTER TABLE chat_client_agents DROP CONSTRAINT chat_client_agents_pkey;
ALTER TABLE chat_client_agents ADD CONSTRAINT chat_client_agents_pkey PRIMARY KEY (tenant_id, client_id);
ALTER TABLE chat_open_streams DROP CONSTRAINT chat_open_streams_pkey;
ALTER TABLE chat_open_streams ADD CONSTRAINT chat_open_streams_pkey PRIMARY KEY (tenant_id, id);

DROP INDEX chat_turns_one_active;
CREATE UNIQUE INDEX chat_turns_one_active ON chat_turns (tenant_id, session_id) WHERE status IN ('running', 'suspended', 'cancelling');

ALTER TABLE chat_messages ADD CONSTRAINT chat_messages_tenant_id_session_id_fkey
  FOREIGN KEY (tenant_id, session_id) REFERENCES chat_sessions (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE chat_feedback ADD CONSTRAINT chat_feedback_tenant_id_session_id_fkey
  FOREIGN KEY (tenant_id, session_id) REFERENCES chat_sessions (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE chat_feedback ADD CONSTRAINT chat_feedback_tenant_id_message_id_fkey
  FOREIGN KEY (tenant_id, message_id) REFERENCES chat_messages (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE chat_turns ADD CONSTRAINT chat_turns_tenant_id_session_id_fkey
  FOREIGN KEY (tenant_id, session_id) REFERENCES chat_sessions (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE chat_turn_frames ADD CONSTRAINT chat_turn_frames_tenant_id_turn_id_fkey
  FOREIGN KEY (tenant_id, turn_id) REFERENCES chat_turns (tenant_id, id) ON DELETE CASCADE;
