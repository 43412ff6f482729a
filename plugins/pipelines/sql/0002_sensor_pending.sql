-- A snapshot the sensor saw while a run of the pipeline was live: the run may
-- have read its input before it landed, so one more run starts when the live
-- one ends (the snapshots it stands for, merged; null when none waits).
ALTER TABLE pipelines ADD COLUMN sensor_pending jsonb;
