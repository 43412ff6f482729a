// The declarative `Transform` kind: a document
// `{apiVersion, kind: Transform, metadata: {name}, spec: {sql, parameters,
// output_dataset, materialization, unique_key, description, status}}` plans
// create (no transform of that name), patch (the changed fields) or noop.
// Planning never writes: it validates and analyzes the SQL exactly as REST
// does; execute runs in the apply transaction. The types mirror the apply
// plugin's api.ts (plugins/pipelines-apply) structurally, so this file
// type-checks without it; plugin.ts contributes the handler to the
// `pipelines-apply.kinds` extension point when that plugin is loaded.
import type { Principal, TenantTransaction } from 'agent-platform/sdk';
import type { TransformService } from '../services/transforms.ts';
import { transformsStore, type TransformValues } from '../store/transforms.ts';

interface Document { apiVersion: string; kind: string; metadata: { name: string } & Record<string, unknown>; spec: Record<string, unknown> }
interface Context { tenantId: string; principal: Principal; declared: Map<string, Document> }
interface Plan {
  action: 'create' | 'patch' | 'noop' | 'would-409' | 'error';
  message?: string;
  changes?: string[];
  id?: string;
  execute?: (trx: TenantTransaction) => Promise<{ id: string }>;
}

const COMPARED: (keyof TransformValues)[] = ['description', 'sql', 'parameters', 'output_dataset', 'materialization', 'unique_key', 'status'];

export function transformKindHandler(transforms: TransformService, withTenant: <T>(tenantId: string, work: (trx: TenantTransaction) => Promise<T>) => Promise<T>) {
  return {
    kind: 'Transform',
    async plan(ctx: Context, doc: Document): Promise<Plan> {
      const spec = { ...doc.spec, name: doc.metadata.name };
      const values = await transforms.prepare(ctx.tenantId, spec, { kind: 'apply' });
      const existing = await withTenant(ctx.tenantId, (trx) => transformsStore.findByName(trx, values.name));
      if (!existing) {
        return {
          action: 'create',
          execute: async (trx) => ({ id: (await transforms.create(trx, ctx.tenantId, values, ctx.principal.sub ?? null)).id }),
        };
      }
      const changes = COMPARED.filter((field) => Object.hasOwn(doc.spec, field) || field === 'sql')
        .filter((field) => JSON.stringify(existing[field as keyof typeof existing]) !== JSON.stringify(values[field]));
      if (changes.length === 0) return { action: 'noop', id: existing.id };
      const patch = Object.fromEntries(changes.map((field) => [field, (spec as Record<string, unknown>)[field]]));
      const prepared = await transforms.preparePatch(ctx.tenantId, existing.id, patch);
      return {
        action: 'patch', id: existing.id, changes,
        execute: async (trx) => ({ id: (await transforms.patch(trx, ctx.tenantId, prepared)).id }),
      };
    },
  };
}
