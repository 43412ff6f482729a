// sync <spec-id> [--force]: read the spec's document again (its URL, or the
// stored upload), and when its content hash changed (or when forced) apply
// the difference: new operations become functions, changed ones are updated,
// operations gone from the document are marked removed. A sync that cannot
// read or parse the document changes no function and leaves the spec
// `sync_failed` with the reason.
import { domainError, isUuid, notFound } from 'agent-platform/sdk';
import { applyPlan, conflictError, conflictsOf } from '../changes/apply.ts';
import { fetchText, type IntegrationsContext } from './context.ts';
import type { AuthConfig } from '../openapi/model.ts';
import { analyze, type Analysis } from '../openapi/analyze.ts';
import { analysisInput, authComparable } from './import.ts';
import { planChanges, summarize } from '../changes/plan.ts';
import { functionsStore } from '../store/functions.ts';
import { specsStore } from '../store/specs.ts';
import { bindingOf, originChangeWarning } from '../sealing/origin-binding.ts';
import { checkStoredAuthValue } from '../sealing/stored-auth-value.ts';
import { specView } from '../views/view.ts';

export function createSyncService(context: IntegrationsContext) {
  const { withTenant } = context;
  const missing = (id: string) => notFound(`Spec not found: ${id}`, 'SPEC_NOT_FOUND');

  async function fail(tenantId: string, specId: string, name: string, err: unknown): Promise<never> {
    const boom = err as { isBoom?: boolean; output?: { statusCode: number; payload: { message: string; code?: string } } };
    const message = boom.isBoom && boom.output!.statusCode !== 500 ? boom.output!.payload.message : (err as Error).message;
    await withTenant(tenantId, (trx) => specsStore.recordFailure(trx, specId, message));
    if (boom.isBoom && boom.output!.payload.code === 'FUNCTION_NAME_CONFLICT') throw err;
    throw domainError(502, `Sync of "${name}" failed: ${message}`, 'SYNC_FAILED');
  }

  return {
    /** `progress` hears each stage (the CLI shows it; the routes need not). */
    async sync(tenantId: string, specId: string, force: boolean, progress: (status: string) => void = () => {}) {
      if (!isUuid(specId)) throw missing(specId);
      const [spec, previous] = await withTenant(tenantId, async (trx) => {
        const row = await specsStore.forSync(trx, specId);
        return [row, row ? await functionsStore.ofSpec(trx, row.id) : []] as const;
      });
      if (!spec) throw missing(specId);
      // The operator may have narrowed the allowlist since the value was given: refused before anything is fetched.
      checkStoredAuthValue(context, tenantId, spec);
      const settings = {
        name: spec.name, prefix: spec.prefix, settings: spec.settings, authValue: undefined,
        credentialSource: spec.auth.credential_source ?? undefined,
      };
      let analysis: Analysis;
      try {
        progress(`${spec.name}: reading ${spec.source_url ?? 'the stored document'}`);
        const text = spec.source_kind === 'url' ? await fetchText(context, spec.source_url!) : spec.document ?? '';
        progress(`${spec.name}: analysing ${text.length} characters`);
        analysis = await analyze(analysisInput(context, text, spec.source_url ?? undefined, settings, previous));
      } catch (err) {
        return fail(tenantId, specId, spec.name, err);
      }
      const previousHash = spec.content_hash;
      if (analysis.contentHash === previousHash && !force) {
        const row = await withTenant(tenantId, (trx) => specsStore.touch(trx, specId));
        return {
          status: 'skipped' as const, spec: specView(row), previous_hash: previousHash, content_hash: previousHash,
          changes: { create: 0, update: 0, unchanged: previous.filter((f) => f.status === 'active').length, remove: 0 },
          functions: [], warnings: [],
        };
      }
      const auth: AuthConfig = { ...analysis.auth, credential_source: spec.auth.credential_source, value_fingerprint: spec.auth.value_fingerprint };
      const authChanged = authComparable(spec.auth) !== authComparable(auth);
      const moved = originChangeWarning(bindingOf(spec), bindingOf({ base_url: analysis.baseUrl, auth }));
      const platform = await context.platformNames(tenantId);
      progress(`${spec.name}: applying the changes`);
      try {
        const stored = await withTenant(tenantId, async (trx) => {
          const current = await specsStore.lock(trx, specId);
          if (!current) throw missing(specId);
          const plan = planChanges(analysis.functions, await functionsStore.ofSpec(trx, specId), authChanged);
          const conflicts = await conflictsOf(trx, platform, plan, specId);
          if (conflicts.length > 0) throw conflictError(conflicts);
          await specsStore.update(trx, specId, {
            content_hash: analysis.contentHash, format: analysis.format, title: analysis.title, api_version: analysis.apiVersion,
            base_url: analysis.baseUrl, auth, warnings: analysis.warnings, last_sync_result: 'synced',
          });
          const events = await applyPlan(trx, tenantId, { id: specId, name: spec.name }, plan);
          await context.announce(trx, tenantId, events);
          return { row: (await specsStore.get(trx, specId))!, plan };
        });
        context.invalidate(tenantId);
        const named = (action: string) => stored.plan.filter((c) => c.action === action);
        return {
          status: 'synced' as const,
          spec: specView(stored.row),
          previous_hash: previousHash,
          content_hash: analysis.contentHash,
          changes: summarize(stored.plan),
          functions: [...named('create'), ...named('update'), ...named('remove')].map((c) => ({
            name: c.name, action: c.action, operation: c.operation, ...(c.changed_fields ? { changed_fields: c.changed_fields } : {}),
          })),
          warnings: moved ? [...analysis.warnings, moved] : analysis.warnings,
        };
      } catch (err) {
        const code = (err as { output?: { payload: { code?: string } } }).output?.payload.code;
        if (code === 'SPEC_NOT_FOUND') throw err;
        return fail(tenantId, specId, spec.name, err);
      }
    },
  };
}

export type SyncService = ReturnType<typeof createSyncService>;
