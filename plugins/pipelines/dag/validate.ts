// DAG validation with the lake and the transforms: steps are checked against
// the step schema, their transforms resolved (SQL, parameters, output), the
// graph analyzed (dag/graph.ts) and every input dataset from outside the
// pipeline checked under the lake's read rule. Nothing is written.
import type { TenantTransaction } from 'agent-platform/sdk';
import type { DagError, DagValidation } from '../api.ts';
import type { PipelinesContext } from '../services/context.ts';
import { step as stepSchema } from '../schemas.ts';
import { analyzeGraph } from './graph.ts';
import type { ResolvedStep, StepSpec } from './types.ts';

export interface DagReport extends DagValidation {
  /** The resolved steps by id (those that resolved). */
  resolved: Map<string, ResolvedStep>;
  dependsOn: Map<string, string[]>;
  /** Input datasets from outside the pipeline. */
  external: string[];
}

/** With `trx` (a transaction of the tenant the caller holds), transforms and datasets are read there. */
export async function validateDag(context: PipelinesContext, tenantId: string, raw: unknown[], trx?: TenantTransaction): Promise<DagReport> {
  const errors: DagError[] = [];
  if (!raw.length) errors.push({ code: 'EMPTY_PIPELINE', message: 'a pipeline needs at least one step' });
  const specs: StepSpec[] = [];
  raw.forEach((candidate, index) => {
    const { value, error } = stepSchema.validate(candidate, { abortEarly: true });
    const id = typeof (candidate as { id?: unknown } | null)?.id === 'string' ? (candidate as { id: string }).id : `#${index + 1}`;
    if (error) errors.push({ code: 'STEP_INVALID', message: `step ${id}: ${error.message}`, steps: [id] });
    else if (value.materialization === 'incremental' && !value.unique_key?.length && !value.transform_id && !value.transform_name) {
      errors.push({ code: 'STEP_INVALID', message: `step ${id}: an incremental materialization needs unique_key`, steps: [id] });
    } else specs.push(value as StepSpec);
  });
  const resolved = new Map<string, ResolvedStep>();
  for (const spec of specs) {
    const step = await resolveStep(context, tenantId, spec, errors, trx);
    if (step && !resolved.has(step.id)) resolved.set(step.id, step);
  }
  const graph = analyzeGraph(specs.map((spec) => ({ id: spec.id, output: resolved.get(spec.id)?.output ?? null, inputs: resolved.get(spec.id)?.inputs ?? spec.inputs })));
  errors.push(...graph.errors);
  for (const [datasetId, readers] of graph.external) {
    const problem = await datasetProblem(context, tenantId, datasetId, trx);
    if (problem) errors.push({ ...problem, steps: readers });
  }
  return { valid: errors.length === 0, errors, order: graph.order, resolved, dependsOn: graph.dependsOn, external: [...graph.external.keys()] };
}

export async function resolveStep(context: PipelinesContext, tenantId: string, spec: StepSpec, errors: DagError[], trx?: TenantTransaction): Promise<ResolvedStep | null> {
  if (spec.sql !== undefined) {
    let output: string;
    try {
      output = context.lake().datasetIdFor('derived', tenantId, spec.output!);
    } catch (error) {
      errors.push({ code: 'STEP_INVALID', message: `step ${spec.id}: ${(error as Error).message}`, steps: [spec.id] });
      return null;
    }
    return {
      id: spec.id, sql: spec.sql, parameters: spec.parameters ?? {}, output, inputs: spec.inputs,
      materialization: spec.materialization ?? 'table', uniqueKey: spec.unique_key ?? [], transformId: null,
    };
  }
  const transforms = context.transformsOrNull();
  const reference = spec.transform_id ?? spec.transform_name!;
  if (!transforms) {
    errors.push({ code: 'TRANSFORMS_UNAVAILABLE', message: `step ${spec.id} names transform ${reference}, but the pipelines-transforms plugin is not loaded`, steps: [spec.id] });
    return null;
  }
  const transform = spec.transform_id ? await transforms.getTransform(tenantId, spec.transform_id, trx) : await transforms.findTransformByName(tenantId, spec.transform_name!, trx);
  if (!transform) {
    errors.push({ code: 'UNKNOWN_TRANSFORM', message: `step ${spec.id} names transform ${reference}, which the tenant does not have`, steps: [spec.id] });
    return null;
  }
  return {
    id: spec.id, sql: transform.sql, parameters: { ...transform.parameters, ...(spec.parameters ?? {}) }, output: transform.output_dataset,
    inputs: spec.inputs.length ? spec.inputs : transform.inputs, materialization: spec.materialization ?? transform.materialization,
    uniqueKey: spec.unique_key ?? transform.unique_key ?? [], transformId: transform.id,
  };
}

async function datasetProblem(context: PipelinesContext, tenantId: string, datasetId: string, trx?: TenantTransaction): Promise<Omit<DagError, 'steps'> | null> {
  try {
    await context.lake().readable(tenantId, datasetId, trx);
    return null;
  } catch (error) {
    const status = (error as { output?: { statusCode?: number } }).output?.statusCode;
    if (status === 403) return { code: 'DATASET_NOT_READABLE', message: `dataset ${datasetId} is not readable by the tenant` };
    if (status === 400) return { code: 'UNKNOWN_DATASET', message: `${datasetId} is not a valid dataset id` };
    if (status === 404) return { code: 'UNKNOWN_DATASET', message: `dataset ${datasetId} does not exist` };
    throw error;
  }
}

/** The public shape (api and REST). */
export const publicValidation = (report: DagReport): DagValidation => ({ valid: report.valid, errors: report.errors, order: report.order });
