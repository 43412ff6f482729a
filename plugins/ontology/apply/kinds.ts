// The declarative kinds EntityType and BackingDataset. Planning
// never writes; `execute` runs in the apply's transaction. A BackingDataset
// with live_ontology is also checked against its ontology tenant
// (apply/preflight.ts); an invalid preflight makes the document an error.
// plugin.ts contributes both handlers to the `pipelines-apply.kinds` extension point.
import type { ApplyContext, ApplyDocument, ApplyKindHandler, ApplyPlan } from '../../pipelines-apply/api.ts';
import type { OntologyContext } from '../services/context.ts';
import { createPreflight } from './preflight.ts';
import * as s from '../schemas.ts';
import { specOf, type BackingDatasetService } from '../services/backing-datasets.ts';
import { checkDefinition, definitionOf, type EntityTypeService } from '../services/entity-types.ts';
import type { BackingDatasetSpec } from '../store/backing-datasets.ts';
import type { EntityTypeDefinition } from '../store/entity-types.ts';

const backingSpec = s.backingCreate.fork(['name'], (schema) => schema.forbidden());

function changedFields(current: Record<string, unknown>, wanted: Record<string, unknown>): string[] {
  return Object.keys(wanted).filter((key) => JSON.stringify(current[key]) !== JSON.stringify(wanted[key])).sort();
}

/** 4xx errors (validation, policy, read rule) become the document's error result. */
async function planned(run: () => Promise<ApplyPlan>): Promise<ApplyPlan> {
  try {
    return await run();
  } catch (err) {
    const boom = err as { isBoom?: boolean; output?: { statusCode: number }; message: string };
    if (boom.isBoom && boom.output!.statusCode < 500) return { action: 'error', message: boom.message };
    throw err;
  }
}

function declaredType(ctx: ApplyContext, code: string): EntityTypeDefinition | undefined {
  const doc = ctx.declared.get(`EntityType/${code}`);
  if (!doc) return undefined;
  const { value, error } = s.entityTypeVersion.validate(doc.spec);
  return error ? undefined : value as EntityTypeDefinition;
}

export function applyKinds(context: OntologyContext, types: EntityTypeService, backing: BackingDatasetService) {
  const preflight = createPreflight(context);

  const entityType: ApplyKindHandler = {
    kind: 'EntityType',
    plan: (ctx: ApplyContext, doc: ApplyDocument) => planned(async () => {
      const caller = await context.policy.authorize(ctx.principal, ctx.tenantId);
      const { value: code, error: codeError } = s.codeParams.extract('code').validate(doc.metadata.name);
      if (codeError) return { action: 'error', message: `metadata.name: ${codeError.message}` };
      const { value, error } = s.entityTypeVersion.validate(doc.spec);
      if (error) return { action: 'error', message: `spec: ${error.message}` };
      const definition = value as EntityTypeDefinition;
      const declared = new Set([...ctx.declared.values()].filter((d) => d.kind === 'EntityType').map((d) => d.metadata.name));
      const named = [...definition.relationships.map((r) => r.target_type), ...definition.carrier_types];
      const known = new Set<string>();
      for (const other of named) if (declared.has(other) || (await types.version(caller.tenantId, other))) known.add(other);
      checkDefinition(code, definition, known);
      const current = await types.version(caller.tenantId, code);
      if (!current) return { action: 'create', execute: async (trx) => ({ id: (await types.create(caller, { code, ...definition }, trx)).code }) };
      const changes = changedFields(definitionOf(current) as never, definition as never);
      if (!changes.length) return { action: 'noop' };
      return { action: 'patch', changes, message: `version ${current.version + 1}`, execute: async (trx) => ({ id: (await types.addVersion(caller, code, definition, trx)).code }) };
    }),
  };

  const backingDataset: ApplyKindHandler = {
    kind: 'BackingDataset',
    plan: (ctx: ApplyContext, doc: ApplyDocument) => planned(async () => {
      const caller = await context.policy.authorize(ctx.principal, ctx.tenantId);
      const { value, error } = backingSpec.validate(doc.spec);
      if (error) return { action: 'error', message: `spec: ${error.message}` };
      const spec = { ...(value as Omit<BackingDatasetSpec, 'name'>), name: doc.metadata.name } as BackingDatasetSpec;
      const { error: nameError } = s.backingCreate.extract('name').validate(spec.name);
      if (nameError) return { action: 'error', message: `metadata.name: ${nameError.message}` };
      const localType = await types.version(caller.tenantId, spec.entity_type, spec.entity_type_version ?? undefined);
      const declared = declaredType(ctx, spec.entity_type);
      // A type declared earlier in the same request is checked when it exists (POST /apply); here only the dataset is.
      if (localType) await backing.check(caller.tenantId, spec);
      else if (!declared) return { action: 'error', message: `entity type ${spec.entity_type} is neither defined nor declared earlier in the request` };
      else await context.lake().readable(caller.tenantId, spec.dataset_id);
      const existing = await backing.byName(caller.tenantId, spec.name);
      const plan: ApplyPlan = existing
        ? (() => {
          const changes = changedFields(specOf(existing) as never, spec as never);
          return changes.length
            ? { action: 'patch' as const, changes, execute: async (trx) => ({ id: (await backing.update(caller, existing.id, spec, trx)).id }) }
            : { action: 'noop' as const };
        })()
        : { action: 'create', execute: async (trx) => ({ id: (await backing.create(caller, spec, trx)).id }) };
      if (!ctx.liveOntology) return plan;
      const local = declared ?? definitionOf(localType!);
      const result = await preflight(caller.tenantId, { entityType: spec.entity_type, entityTypeVersion: spec.entity_type_version, mappings: spec.mappings, local });
      if (!result.valid) return { action: 'error', message: 'live_ontology preflight failed', preflight: result };
      return { ...plan, preflight: result };
    }),
  };

  return { entityType, backingDataset };
}
