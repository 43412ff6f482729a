-- The message a citation was made in, when its context has messages: a chat
-- answer's citations name the stored assistant message (chat_messages.id), so
-- one answer's citations are one query. Null for citations made elsewhere or
-- before the column existed. No foreign key: citations do not depend on chat,
-- and a citation outlives its message.
ALTER TABLE citations ADD COLUMN message_id bigint;
CREATE INDEX citations_message_idx ON citations (tenant_id, message_id, seq) WHERE message_id IS NOT NULL;
