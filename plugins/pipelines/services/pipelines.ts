// Pipelines: CRUD of the editable definition, step patches,
// DAG validation, immutable versions, activation and pause. States: draft →
// validated (its DAG checked valid) → active (runs its active version on its
// schedule and sensor) ⇄ paused; any edit of the steps makes a draft or
// validated pipeline a draft again (an active or paused one keeps its state:
// it runs its activated version until activated again).
import { createHash } from 'node:crypto';
import { badRequest, canonicalTimeZone, conflict, cronProblem, domainError, type KeysetPage, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { DagValidation } from '../api.ts';
import type { PipelinesContext } from './context.ts';
import type { StepSpec } from '../dag/types.ts';
import { publicValidation, validateDag } from '../dag/validate.ts';
import { step as stepSchema } from '../schemas.ts';
import { armSchedule, disarmSchedule } from '../triggers/schedule.ts';
import { armSensor } from '../triggers/sensor.ts';
import { pipelinesStore, versionsStore, type PipelineChange, type PipelineRow } from '../store/pipelines.ts';
import { runsStore } from '../store/runs.ts';
import { pipelineView, versionView } from '../views/view.ts';

export interface PipelineInput {
  name?: string;
  description?: string;
  steps?: StepSpec[];
  schedule?: { cron: string; timezone?: string } | null;
  sensor?: boolean;
}

export const fingerprintOf = (steps: StepSpec[]) => createHash('sha256').update(JSON.stringify(steps)).digest('hex');

export function createPipelineService(context: PipelinesContext) {
  const { core } = context;

  async function lockOr404(trx: TenantTransaction, id: string): Promise<PipelineRow> {
    const row = await pipelinesStore.lock(trx, id);
    if (!row) throw notFound(`pipeline ${id} not found`, 'PIPELINE_NOT_FOUND');
    return row;
  }

  function scheduleChange(schedule: PipelineInput['schedule']): Pick<PipelineChange, 'schedule_cron' | 'schedule_timezone'> {
    if (schedule === undefined) return {};
    if (schedule === null) return { schedule_cron: null };
    const problem = cronProblem(schedule.cron);
    if (problem) throw badRequest(`schedule.cron ${problem}`, 'SCHEDULE_INVALID');
    const timezone = canonicalTimeZone(schedule.timezone ?? 'UTC');
    if (!timezone) throw badRequest(`schedule.timezone ${schedule.timezone} is not an IANA time zone`, 'SCHEDULE_INVALID');
    return { schedule_cron: schedule.cron.trim(), schedule_timezone: timezone };
  }

  function checkStepIds(steps: StepSpec[]) {
    const seen = new Set<string>();
    for (const step of steps) {
      if (seen.has(step.id)) throw badRequest(`two steps have the id ${step.id}`, 'DUPLICATE_STEP');
      seen.add(step.id);
    }
  }

  /** After a change of an active pipeline's schedule or sensor: the timers follow. */
  async function rearm(trx: TenantTransaction, tenantId: string, row: Omit<PipelineRow, 'latest_version'>) {
    if (row.state !== 'active') return row;
    const next = await armSchedule(context, trx, tenantId, row);
    if (row.sensor) await armSensor(context, trx, tenantId);
    return next;
  }

  async function create(trx: TenantTransaction, tenantId: string, input: PipelineInput, createdBy: string | null) {
    const steps = input.steps ?? [];
    checkStepIds(steps);
    const schedule = scheduleChange(input.schedule ?? null);
    if (await pipelinesStore.findByName(trx, input.name!)) throw conflict(`a pipeline named ${input.name} exists`, 'PIPELINE_EXISTS');
    return pipelinesStore.insert(trx, {
      tenant_id: tenantId, name: input.name!, description: input.description ?? '', steps,
      schedule_cron: schedule.schedule_cron ?? null, schedule_timezone: schedule.schedule_timezone ?? 'UTC', sensor: input.sensor ?? false, state: 'draft', created_by: createdBy,
    });
  }

  async function update(trx: TenantTransaction, tenantId: string, id: string, input: PipelineInput) {
    const current = await lockOr404(trx, id);
    if (input.steps) checkStepIds(input.steps);
    if (input.name !== undefined && input.name !== current.name && await pipelinesStore.findByName(trx, input.name)) {
      throw conflict(`a pipeline named ${input.name} exists`, 'PIPELINE_EXISTS');
    }
    const stepsChanged = input.steps !== undefined && JSON.stringify(input.steps) !== JSON.stringify(current.steps);
    const updated = await pipelinesStore.update(trx, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.steps !== undefined ? { steps: input.steps } : {}),
      ...(input.sensor !== undefined ? { sensor: input.sensor } : {}),
      ...scheduleChange(input.schedule),
      ...(stepsChanged && current.state === 'validated' ? { state: 'draft' as const } : {}),
    });
    return rearm(trx, tenantId, updated);
  }

  async function newVersion(trx: TenantTransaction, tenantId: string, row: PipelineRow, note: string, createdBy: string | null) {
    const report = await validateDag(context, tenantId, row.steps, trx);
    if (!report.valid) throw dagInvalid(publicValidation(report));
    return versionsStore.insert(trx, {
      tenant_id: tenantId, pipeline_id: row.id, version: (row.latest_version ?? 0) + 1, steps: row.steps, fingerprint: fingerprintOf(row.steps), note, created_by: createdBy,
    });
  }

  async function versionFor(trx: TenantTransaction, tenantId: string, id: string, version: number | undefined, note: string, createdBy: string | null) {
    const row = await lockOr404(trx, id);
    if (version !== undefined) {
      const found = await versionsStore.find(trx, id, version);
      if (!found) throw notFound(`pipeline ${id} has no version ${version}`, 'VERSION_NOT_FOUND');
      return { pipeline: row, version: found };
    }
    const latest = await versionsStore.latest(trx, id);
    if (latest && latest.fingerprint === fingerprintOf(row.steps)) return { pipeline: row, version: latest };
    const created = await newVersion(trx, tenantId, row, note, createdBy);
    if (row.state === 'draft') await pipelinesStore.update(trx, row.id, { state: 'validated' });
    return { pipeline: row, version: created };
  }

  return {
    create: (tenantId: string, input: PipelineInput, createdBy: string | null) =>
      core.withTenant(tenantId, async (trx) => pipelineView(await create(trx, tenantId, input, createdBy))),
    /** Inside a caller's transaction (declarative apply). */
    createIn: create,
    updateIn: update,

    get: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const row = await pipelinesStore.find(trx, id);
      if (!row) throw notFound(`pipeline ${id} not found`, 'PIPELINE_NOT_FOUND');
      return pipelineView(row);
    }),

    findByName: (tenantId: string, name: string) => core.withTenant(tenantId, async (trx) => {
      const row = await pipelinesStore.findByName(trx, name);
      return row ? pipelineView(row) : null;
    }),

    list: (tenantId: string, page: { limit: number; offset: number }) => core.withTenant(tenantId, async (trx) => ({
      items: (await pipelinesStore.list(trx, page)).map(pipelineView), total: await pipelinesStore.count(trx), ...page,
    })),

    /** A keyset page of pipelines (GraphQL; see pipelinesStore.page). */
    page: (tenantId: string, page: KeysetPage<string>) => core.withTenant(tenantId, async (trx) => (await pipelinesStore.page(trx, page)).map(pipelineView)),

    count: (tenantId: string) => core.withTenant(tenantId, (trx) => pipelinesStore.count(trx)),

    /** The pipelines of these ids, in their order (undefined where absent). */
    findMany: (tenantId: string, ids: readonly string[]) => core.withTenant(tenantId, async (trx) => {
      const rows = new Map((await pipelinesStore.findMany(trx, [...new Set(ids)])).map((row) => [row.id, pipelineView(row)]));
      return ids.map((id) => rows.get(id));
    }),

    update: (tenantId: string, id: string, input: PipelineInput) => core.withTenant(tenantId, async (trx) => {
      await update(trx, tenantId, id, input);
      return pipelineView((await pipelinesStore.find(trx, id))!);
    }),

    patchStep: (tenantId: string, id: string, stepId: string, patch: Record<string, unknown>) => core.withTenant(tenantId, async (trx) => {
      const current = await lockOr404(trx, id);
      const index = current.steps.findIndex((step) => step.id === stepId);
      if (index < 0) throw notFound(`pipeline ${id} has no step ${stepId}`, 'STEP_NOT_FOUND');
      const merged: Record<string, unknown> = { ...current.steps[index], ...patch };
      for (const [key, value] of Object.entries(merged)) if (value === null) delete merged[key];
      // A source of SQL replaces the other ones.
      for (const source of ['transform_id', 'transform_name', 'sql'] as const) {
        if (patch[source]) for (const other of ['transform_id', 'transform_name', 'sql']) if (other !== source && !(other in patch)) delete merged[other];
      }
      if (merged.sql === undefined) delete merged.output;
      const { value, error } = stepSchema.validate(merged);
      if (error) throw badRequest(`step ${stepId} after the patch: ${error.message}`, 'STEP_INVALID');
      const steps = current.steps.map((step, at) => (at === index ? value as StepSpec : step));
      await update(trx, tenantId, id, { steps });
      return pipelineView((await pipelinesStore.find(trx, id))!);
    }),

    remove: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const row = await lockOr404(trx, id);
      await disarmSchedule(context, trx, tenantId, row.id);
      await pipelinesStore.delete(trx, id);
    }),

    /** POST /pipelines/validate-dag: given steps (nothing stored) or a stored pipeline (valid: draft → validated). */
    validate: async (tenantId: string, input: { steps?: unknown[]; pipeline_id?: string }): Promise<DagValidation> => {
      if (input.steps) return publicValidation(await validateDag(context, tenantId, input.steps));
      return core.withTenant(tenantId, async (trx) => {
        const row = await lockOr404(trx, input.pipeline_id!);
        const report = publicValidation(await validateDag(context, tenantId, row.steps, trx));
        if (report.valid && row.state === 'draft') await pipelinesStore.update(trx, row.id, { state: 'validated' });
        return report;
      });
    },

    createVersion: (tenantId: string, id: string, note: string, createdBy: string | null) => core.withTenant(tenantId, async (trx) => {
      const row = await lockOr404(trx, id);
      const version = await newVersion(trx, tenantId, row, note, createdBy);
      if (row.state === 'draft') await pipelinesStore.update(trx, row.id, { state: 'validated' });
      return versionView(version);
    }),

    listVersions: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      if (!await pipelinesStore.find(trx, id)) throw notFound(`pipeline ${id} not found`, 'PIPELINE_NOT_FOUND');
      return (await versionsStore.list(trx, id)).map(versionView);
    }),

    /** The version a sandbox run uses: the one asked for, else the current definition (versioned when it changed). */
    versionForSandbox: (trx: TenantTransaction, tenantId: string, id: string, version: number | undefined, createdBy: string | null) =>
      versionFor(trx, tenantId, id, version, 'sandbox run', createdBy),

    activate: (tenantId: string, id: string, input: { version?: number; force?: boolean }, createdBy: string | null = null) => core.withTenant(tenantId, async (trx) => {
      // The version asked for, else the current definition (versioned when it changed: a new version has no sandbox run yet).
      const { version } = await versionFor(trx, tenantId, id, input.version, 'activation', createdBy);
      const versionNumber = version.version;
      if (!input.force) {
        const sandbox = await runsStore.latestSandbox(trx, id, versionNumber);
        if (sandbox?.status !== 'succeeded') {
          throw conflict(`version ${versionNumber} has no succeeded latest sandbox run (${sandbox ? sandbox.status : 'none'}): run one, or activate with force: true`, 'SANDBOX_REQUIRED');
        }
      }
      const report = await validateDag(context, tenantId, version.steps, trx);
      if (!report.valid) throw dagInvalid(publicValidation(report));
      const updated = await pipelinesStore.update(trx, id, { state: 'active', active_version: versionNumber, activated_at: new Date() });
      await rearm(trx, tenantId, updated);
      return pipelineView((await pipelinesStore.find(trx, id))!);
    }),

    pause: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const row = await lockOr404(trx, id);
      if (row.state !== 'active') throw conflict(`the pipeline is ${row.state}, not active`, 'PIPELINE_NOT_ACTIVE');
      await disarmSchedule(context, trx, tenantId, row.id);
      await pipelinesStore.update(trx, id, { state: 'paused', next_run_at: null });
      return pipelineView((await pipelinesStore.find(trx, id))!);
    }),
  };
}

export function dagInvalid(validation: DagValidation) {
  const error = domainError(400, `the pipeline's DAG is invalid: ${validation.errors.map((e) => e.message).join('; ')}`, 'DAG_INVALID');
  (error.output.payload as Record<string, unknown>).errors = validation.errors;
  return error;
}

export type PipelineService = ReturnType<typeof createPipelineService>;
