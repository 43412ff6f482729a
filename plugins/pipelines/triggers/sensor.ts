// The snapshot sensor: an active pipeline with `sensor: true` runs when one
// of its input datasets (from outside the pipeline) gets a new snapshot. The
// lakehouse emits dataset.snapshot_created in the transaction of each write;
// a graphile-worker job per tenant (keyed, so one at a time) reads the
// tenant's event stream past its cursor through the events plugin's api,
// starts the runs those events call for and moves the cursor in one
// transaction, then re-arms itself while a sensored pipeline is active.
// Snapshots made before a pipeline's activation never start it.
import type { TenantTransaction } from 'agent-platform/sdk';
import type { PipelinesContext } from '../services/context.ts';
import { validateDag } from '../dag/validate.ts';
import { pipelinesStore, versionsStore, type PipelineRow } from '../store/pipelines.ts';
import { sensorStore } from '../store/workflows.ts';

export const SENSOR_TASK = 'pipelines.sensor';
export const SNAPSHOT_CREATED = 'dataset.snapshot_created';
const BATCH = 200;

export interface SensorJob {
  tenant_id: string;
}

const sensorKey = (tenantId: string) => `pipelines:sensor:${tenantId}`;

export async function armSensor(context: PipelinesContext, trx: TenantTransaction | undefined, tenantId: string, delaySeconds = context.options.sensorIntervalSeconds) {
  await context.core.jobs.enqueue(SENSOR_TASK, { tenant_id: tenantId }, { trx, jobKey: sensorKey(tenantId), runAt: new Date(Date.now() + delaySeconds * 1000) });
}

export type StartSensorRun = (trx: TenantTransaction, tenantId: string, pipeline: PipelineRow, detail: Record<string, unknown>) => Promise<boolean>;

export async function runSensor(context: PipelinesContext, job: SensorJob, start: StartSensorRun): Promise<void> {
  const events = context.events();
  if (!events) return;
  const again = await context.core.withTenant(job.tenant_id, async (trx) => {
    const pipelines = await pipelinesStore.activeSensors(trx);
    if (!pipelines.length) return false;
    const cursor = await sensorStore.lock(trx, job.tenant_id);
    const batch = await events.after(job.tenant_id, cursor, BATCH, SNAPSHOT_CREATED, trx);
    if (batch.length) {
      const watching = await Promise.all(pipelines.map(async (pipeline) => {
        const version = await versionsStore.find(trx, pipeline.id, pipeline.active_version!);
        // Datasets it reads from outside the pipeline (its transforms' inputs included).
        const report = await validateDag(context, job.tenant_id, version?.steps ?? [], trx);
        return { pipeline, inputs: new Set(report.external) };
      }));
      for (const { pipeline, inputs } of watching) {
        const fresh = batch.filter((event) => {
          const data = event.data as { dataset_id?: string; snapshot_id?: string };
          return data.dataset_id && inputs.has(data.dataset_id) && pipeline.activated_at && new Date(event.time) >= pipeline.activated_at;
        });
        // Several snapshots in one batch start one run (it reads them all).
        if (fresh.length) {
          await start(trx, job.tenant_id, pipeline, {
            snapshots: fresh.map((event) => ({ dataset_id: (event.data as { dataset_id: string }).dataset_id, snapshot_id: (event.data as { snapshot_id: string }).snapshot_id })),
          });
        }
      }
      await sensorStore.move(trx, job.tenant_id, batch[batch.length - 1]);
    }
    return batch.length === BATCH ? 'now' : true;
  });
  if (again) await armSensor(context, undefined, job.tenant_id, again === 'now' ? 0 : context.options.sensorIntervalSeconds);
}
