-- Issue 13 (item 10), the event-chain part (it shipped in one file with the
-- chat plugin's sql/0002_session_owner.sql before migrations moved into their
-- plugins).
--
-- Events carry their chain depth (the CloudEvents extension `chaindepth`): an
-- event emitted by a workflow execution that an event started is one deeper
-- than that event; the dispatcher starts nothing for an event at
-- EVENTS_MAX_CHAIN_DEPTH (plugins/events/dispatcher.ts).
ALTER TABLE events ADD COLUMN chaindepth smallint NOT NULL DEFAULT 0 CHECK (chaindepth >= 0);
