// Declarative apply: every document is planned by its kind's
// handler, in order; a dry-run answers the plans and writes nothing; an apply
// performs every plan in ONE tenant transaction, so all documents land or
// none does (a document that does not plan cleanly refuses the whole apply).
import Boom from '@hapi/boom';
import { badRequest, conflict, type CoreServices, type Principal } from 'agent-platform/sdk';
import type { ApplyContext, ApplyDocument, ApplyPlan } from '../api.ts';
import type { KindRegistry } from '../kinds/registry.ts';

export const API_VERSION = 'agent-platform/v1';

export interface Envelope {
  docs: ApplyDocument[];
  allow_deprecate: boolean;
  live_ontology: boolean;
}

export interface DocumentResult extends Omit<ApplyPlan, 'execute'> {
  index: number;
  kind: string;
  name: string;
}

const shown = (text: string) => (/^[A-Za-z0-9_.-]{1,100}$/.test(text) ? `"${text}"` : 'this value');

function errorResult(message: string): ApplyPlan {
  return { action: 'error', message };
}

/** A 4xx from a handler (or from executing its plan) is the document's error; anything else is a fault of ours. */
function clientError(error: unknown): Boom.Boom | undefined {
  if (Boom.isBoom(error as Error) && !(error as Boom.Boom).isServer) return error as Boom.Boom;
  if ((error as { code?: string }).code === '23505') return conflict('A record with these values already exists', 'CONFLICT');
  return undefined;
}

export function createApplyService(core: CoreServices, registry: KindRegistry) {
  async function planOne(ctx: ApplyContext, doc: ApplyDocument): Promise<ApplyPlan> {
    if (doc.apiVersion !== API_VERSION) return errorResult(`apiVersion must be ${API_VERSION}, not ${shown(doc.apiVersion)}`);
    const handler = registry.get(doc.kind);
    if (!handler) {
      const known = registry.kinds();
      return errorResult(`Unknown kind ${shown(doc.kind)}: known kinds are ${known.length ? known.join(', ') : 'none'}`);
    }
    if (ctx.declared.has(`${doc.kind}/${doc.metadata.name}`)) return errorResult(`${doc.kind} ${shown(doc.metadata.name)} is declared twice in this request`);
    try {
      return await handler.plan(ctx, doc);
    } catch (error) {
      const refused = clientError(error);
      if (!refused) throw error;
      return errorResult(refused.message);
    }
  }

  async function plan(tenantId: string, principal: Principal, envelope: Envelope) {
    const declared = new Map<string, ApplyDocument>();
    const ctx: ApplyContext = { tenantId, principal, allowDeprecate: envelope.allow_deprecate, liveOntology: envelope.live_ontology, declared };
    const planned: { doc: ApplyDocument; plan: ApplyPlan }[] = [];
    for (const doc of envelope.docs) {
      const result = await planOne(ctx, doc);
      planned.push({ doc, plan: result });
      declared.set(`${doc.kind}/${doc.metadata.name}`, doc);
    }
    return planned;
  }

  function resultOf(index: number, doc: ApplyDocument, plan: ApplyPlan): DocumentResult {
    const { execute: _execute, ...shownPlan } = plan;
    return { index, kind: doc.kind, name: doc.metadata.name, ...shownPlan };
  }

  return {
    /** Plans only: nothing is written, whatever the handlers are asked. */
    async dryRun(tenantId: string, principal: Principal, envelope: Envelope) {
      const planned = await plan(tenantId, principal, envelope);
      return { dry_run: true, applied: false, results: planned.map(({ doc, plan: p }, index) => resultOf(index, doc, p)) };
    },

    /**
     * Plans, then performs every plan in one transaction. A document whose
     * plan is `error` (400 APPLY_INVALID) or `would-409` (409 APPLY_CONFLICT)
     * refuses the apply before anything is written; a failure while
     * performing rolls everything back and names the document.
     */
    async apply(tenantId: string, principal: Principal, envelope: Envelope) {
      const planned = await plan(tenantId, principal, envelope);
      const results = planned.map(({ doc, plan: p }, index) => resultOf(index, doc, p));
      const refuse = (error: Boom.Boom) => {
        (error.output.payload as unknown as Record<string, unknown>).results = results;
        return error;
      };
      if (results.some((r) => r.action === 'error')) throw refuse(badRequest('Some documents cannot be applied (see results): nothing was applied', 'APPLY_INVALID'));
      if (results.some((r) => r.action === 'would-409')) throw refuse(conflict('Some documents conflict with existing objects (see results): nothing was applied', 'APPLY_CONFLICT'));
      await core.withTenant(tenantId, async (trx) => {
        for (const [index, { doc, plan: p }] of planned.entries()) {
          if (!p.execute) continue;
          try {
            results[index].id = (await p.execute(trx)).id;
          } catch (error) {
            const refused = clientError(error);
            if (!refused) throw error;
            const wrapped = Boom.boomify(new Error(`Document ${index} (${doc.kind} ${shown(doc.metadata.name)}): ${refused.message}; nothing was applied`), { statusCode: refused.output.statusCode });
            const code = (refused.output.payload as unknown as Record<string, unknown>).code;
            if (code) (wrapped.output.payload as unknown as Record<string, unknown>).code = code;
            throw wrapped;
          }
        }
      });
      return { dry_run: false, applied: true, results };
    },
  };
}

export type ApplyService = ReturnType<typeof createApplyService>;
