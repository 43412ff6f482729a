// The declarative kind `Pipeline`, registered with the
// pipelines-apply plugin. A document names its pipeline by metadata.name:
//
//   apiVersion: agent-platform/v1
//   kind: Pipeline
//   metadata: { name: orders_flow }
//   spec: { description, steps: [...], schedule: {cron, timezone} | null, sensor }
//
// Plans: create (no pipeline of that name), patch (the fields that differ,
// as `spec.<field>` paths), noop; error when the spec or its DAG is invalid.
// A step may name a Transform declared earlier in the same request (not yet
// stored): its name and its output dataset count as known. Planning writes
// nothing; execute creates or updates inside the apply transaction (the
// pipeline stays a draft or keeps its state: activation is not declarative).
import { badRequest, type TenantTransaction } from 'agent-platform/sdk';
import type { ApplyContext, ApplyDocument, ApplyKindHandler, ApplyPlan } from '../../pipelines-apply/api.ts';
import type { PipelinesContext } from '../services/context.ts';
import { validateDag } from '../dag/validate.ts';
import { pipelineCreate } from '../schemas.ts';
import type { PipelineInput, PipelineService } from '../services/pipelines.ts';

const spec = pipelineCreate.fork(['name'], (schema) => schema.forbidden()).label('PipelineSpec');
const FIELDS = ['description', 'steps', 'schedule', 'sensor'] as const;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
  return value;
}
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** Transforms declared earlier in the request: their names and output datasets. */
function declaredTransforms(ctx: ApplyContext, lakeId: (table: string) => string) {
  const names = new Set<string>();
  const outputs = new Set<string>();
  for (const doc of ctx.declared.values()) {
    if (doc.kind !== 'Transform') continue;
    names.add(doc.metadata.name);
    const output = typeof doc.spec.output_dataset === 'string' ? doc.spec.output_dataset : doc.metadata.name;
    outputs.add(output.includes('.') ? output : lakeId(output));
  }
  return { names, outputs };
}

export function pipelineKind(context: PipelinesContext, pipelines: PipelineService): ApplyKindHandler {
  return {
    kind: 'Pipeline',
    async plan(ctx: ApplyContext, doc: ApplyDocument): Promise<ApplyPlan> {
      const { value, error } = spec.validate(doc.spec, { abortEarly: false, errors: { label: 'path' } });
      if (error) throw badRequest(`spec: ${error.details.map((d) => d.message).join('; ')}`, 'VALIDATION_FAILED');
      const input = { ...(value as PipelineInput), name: doc.metadata.name };
      const declared = declaredTransforms(ctx, (table) => context.lake().datasetIdFor('derived', ctx.tenantId, table));
      const report = await validateDag(context, ctx.tenantId, input.steps ?? []);
      const errors = report.errors.filter((e) => {
        if (e.code === 'UNKNOWN_TRANSFORM') return !(e.steps ?? []).every((stepId) => declared.names.has(String(input.steps?.find((s) => s.id === stepId)?.transform_name)));
        if (e.code === 'UNKNOWN_DATASET') return ![...declared.outputs].some((output) => e.message.includes(output));
        return true;
      });
      if (errors.length) return { action: 'error', message: `the pipeline's DAG is invalid: ${errors.map((e) => e.message).join('; ')}` };

      const existing = await pipelines.findByName(ctx.tenantId, doc.metadata.name);
      if (!existing) {
        return {
          action: 'create', changes: FIELDS.map((field) => `spec.${field}`),
          execute: async (trx: TenantTransaction) => ({ id: (await pipelines.createIn(trx, ctx.tenantId, input, ctx.principal.sub)).id }),
        };
      }
      const wanted: Record<string, unknown> = { description: input.description ?? '', steps: input.steps ?? [], schedule: input.schedule ?? null, sensor: input.sensor ?? false };
      const changes = FIELDS.filter((field) => !same((existing as Record<string, unknown>)[field], wanted[field])).map((field) => `spec.${field}`);
      if (!changes.length) return { action: 'noop', id: existing.id };
      const patch: PipelineInput = Object.fromEntries(changes.map((path) => [path.slice(5), wanted[path.slice(5)]]));
      return {
        action: 'patch', id: existing.id, changes,
        execute: async (trx: TenantTransaction) => ({ id: (await pipelines.updateIn(trx, ctx.tenantId, existing.id, patch)).id }),
      };
    },
  };
}
