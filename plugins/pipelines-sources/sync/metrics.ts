// Orchestration metrics of sync runs on /api/v1/metrics:
// the phase histogram `service_orchestration_window_phase_seconds` (bucket,
// sum, count, and a `_max` gauge) labelled window, job_name, phase, and the
// counter `service_orchestration_window_worker_bootstrap_timing_capture_failures`
// of terminal runs whose worker report is incomplete.
//
// Our runner is a pg-boss job, not a Dagster worker: it has four phases of
// its own, and a Dagster worker's phase names map onto them as follows
//   queue_to_attempt_start        ≈ container_to_worker_entrypoint (the job waits for a worker)
//   attempt_start_to_source_ready ≈ worker_entrypoint_to_definitions_import … registry_build_to_bronze_assets
//                                   (plan the streams, open the credentials, build the pattern's context)
//   source_ready_to_streams_done  ≈ bronze_to_silver_assets (read and land every stream)
//   streams_done_to_settled       ≈ silver_assets_to_definitions_ready (record the outcome)
// The Python import phases have no counterpart and are never reported: a
// missing phase is missing data, never zero seconds. `window` is what opened
// the run (manual or schedule); job_name is the pg-boss task.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export type SyncPhase = 'queue_to_attempt_start' | 'attempt_start_to_source_ready' | 'source_ready_to_streams_done' | 'streams_done_to_settled';

const BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 14_400];

export function createSyncMetrics(registry: Registry) {
  const labelNames = ['window', 'job_name', 'phase'] as const;
  const phases = new Histogram({ name: 'service_orchestration_window_phase_seconds', help: 'Seconds each phase of a sync run attempt took', labelNames, buckets: BUCKETS, registers: [registry] });
  const max = new Gauge({ name: 'service_orchestration_window_phase_seconds_max', help: 'Longest observed seconds of each phase of a sync run attempt', labelNames, registers: [registry] });
  const captureFailures = new Counter({
    name: 'service_orchestration_window_worker_bootstrap_timing_capture_failures',
    help: 'Terminal sync runs without a complete worker phase report (must be zero before phase timings are read)',
    labelNames: ['window', 'job_name'], registers: [registry],
  });
  const maxima = new Map<string, number>();

  return {
    /** Records an attempt's phases that were measured (absent ones stay absent); `terminal` runs with a gap count as capture failures. */
    report(labels: { window: string; jobName: string }, measured: Partial<Record<SyncPhase, number>>, terminal: boolean): void {
      for (const [phase, seconds] of Object.entries(measured)) {
        const set = { window: labels.window, job_name: labels.jobName, phase };
        phases.observe(set, seconds);
        const key = `${labels.window}\u0000${labels.jobName}\u0000${phase}`;
        if (seconds > (maxima.get(key) ?? -1)) {
          maxima.set(key, seconds);
          max.set(set, seconds);
        }
      }
      const complete = ['attempt_start_to_source_ready', 'source_ready_to_streams_done', 'streams_done_to_settled'].every((phase) => phase in measured);
      if (terminal && !complete) captureFailures.inc({ window: labels.window, job_name: labels.jobName });
    },
  };
}

export type SyncMetrics = ReturnType<typeof createSyncMetrics>;
