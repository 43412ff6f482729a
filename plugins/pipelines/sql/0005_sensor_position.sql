-- The sensor's cursor is the position (in the events plugin's stream order,
-- as text) of the last event it read. Null: it has read up to the event
-- numbered last_seq (a cursor kept before positions).
ALTER TABLE pipeline_sensor_cursors ADD COLUMN last_position text;
