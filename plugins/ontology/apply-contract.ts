// The declarative kind registry's contract (plugins/pipelines-apply/api.ts,
// fixed by the integrator and built on the `apply` branch), typed here by
// shape until that plugin is merged: the ontology registers its kinds with
// it when it is loaded (apply-kinds.ts).
import type { Principal, TenantTransaction } from 'agent-platform/sdk';

export interface ApplyDocument { apiVersion: string; kind: string; metadata: { name: string } & Record<string, unknown>; spec: Record<string, unknown> }
export type ApplyAction = 'create' | 'patch' | 'noop' | 'would-409' | 'error';
export interface ApplyContext {
  tenantId: string;
  principal: Principal;
  allowDeprecate: boolean;
  liveOntology: boolean;
  declared: Map<string, ApplyDocument>;
}
export interface Preflight { valid: boolean; checks: { check: string; ok: boolean; message?: string }[] }
export interface ApplyPlan {
  action: ApplyAction;
  message?: string;
  changes?: string[];
  preflight?: Preflight;
  execute?: (trx: TenantTransaction) => Promise<{ id: string }>;
}
export interface ApplyKindHandler { kind: string; plan(ctx: ApplyContext, doc: ApplyDocument): Promise<ApplyPlan> }
export interface ApplyApi { registerKind(handler: ApplyKindHandler): void; readonly apiVersion: string }
