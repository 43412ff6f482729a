// What the pipelines-apply plugin offers other plugins: its api (the
// apiVersion documents carry) and the extension point `pipelines-apply.kinds`.
// A provider plugin (pipelines-sources, pipelines-transforms, pipelines,
// ontology, identity) contributes the handler of each kind it owns
// (`core.extensions.contribute('pipelines-apply.kinds', handler)`); POST
// /apply/dry-run and POST /apply then route each document of that kind to it.
import type { Principal, TenantTransaction } from 'agent-platform/sdk';

/** One declarative document: `apiVersion: agent-platform/v1`, `kind`, `metadata.name`, `spec`. */
export interface ApplyDocument {
  apiVersion: string;
  kind: string;
  metadata: { name: string } & Record<string, unknown>;
  spec: Record<string, unknown>;
}

export type ApplyAction = 'create' | 'patch' | 'noop' | 'would-409' | 'error';

export interface ApplyContext {
  tenantId: string;
  principal: Principal;
  allowDeprecate: boolean;
  liveOntology: boolean;
  /** documents earlier in the same request, by `${kind}/${name}` (a Pipeline may name a Transform declared before it) */
  declared: Map<string, ApplyDocument>;
}

export interface ApplyPlan {
  action: ApplyAction;
  message?: string;
  /** changed field paths for patch */
  changes?: string[];
  /** Source documents: stream-level results */
  streams?: { name: string; action: 'create' | 'patch' | 'noop' | 'unmanaged' }[];
  /** live_ontology preflight result (BackingDataset) */
  preflight?: { valid: boolean; checks: { check: string; ok: boolean; message?: string }[] };
  /** the existing object's id (patch, noop), shown in the result */
  id?: string;
  /** performs the plan inside the apply transaction (POST /apply); absent for noop/error */
  execute?: (trx: TenantTransaction) => Promise<{ id: string }>;
}

/**
 * Plans one document of its kind. Planning never writes (dry-run runs it
 * outside any transaction the handler could commit); credential-like values
 * never appear in the plan. A 4xx error thrown by `plan` becomes that
 * document's `error` result with the error's message.
 */
export interface ApplyKindHandler {
  kind: string;
  plan(ctx: ApplyContext, doc: ApplyDocument): Promise<ApplyPlan>;
}

export interface ApplyApi {
  /** `agent-platform/v1`: the only apiVersion documents may carry. */
  readonly apiVersion: string;
}

declare module 'agent-platform/sdk' {
  interface ExtensionPoints {
    /** The handler of one declarative kind; a kind contributed twice stops the boot. */
    'pipelines-apply.kinds': ApplyKindHandler;
  }
}

// What this plugin exposes as `api` (what a plugin declaring it receives in register).
declare module '@hapi/hapi' {
  interface PluginProperties {
    'pipelines-apply': { api: ApplyApi };
  }
}
