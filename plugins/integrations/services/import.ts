// import-openapi: read a document (URL, upload or inline), work out the
// functions it yields and what that changes against an import of the same
// name, and either show it (dry run, the default) or store it. Importing a
// name again re-imports: settings are replaced, functions created, updated
// or marked removed like a re-sync.
import { randomUUID } from 'node:crypto';
import { conflict } from 'agent-platform/sdk';
import { applyPlan, conflictError, conflictsOf } from '../changes/apply.ts';
import { checkSourceUrl, fetchText, type IntegrationsContext } from './context.ts';
import type { AuthConfig } from '../openapi/model.ts';
import { analyze, type Analysis } from '../openapi/analyze.ts';
import { canonical, planChanges, summarize, type ExistingFunction } from '../changes/plan.ts';
import { checkPlaceholders } from '../calling/placeholders.ts';
import { bindingOf, originChangeWarning } from '../sealing/origin-binding.ts';
import { checkStoredAuthValue } from '../sealing/stored-auth-value.ts';
import { fingerprint, sealBound, sealContext } from '../sealing/sealing.ts';
import { importSettings, type ImportSettings, type ImportSettingsInput } from '../openapi/settings.ts';
import { functionsStore } from '../store/functions.ts';
import { specsStore, type SpecRow } from '../store/specs.ts';
import { authView, changeView, specView } from '../views/view.ts';

export interface ImportInput extends ImportSettingsInput {
  source?: string;
  spec?: string | Record<string, unknown>;
  file?: Buffer | Record<string, unknown>;
  dry_run: boolean;
}

interface LoadedSource {
  kind: 'url' | 'file' | 'inline';
  url?: string;
  text: string;
}

async function loadSource(context: IntegrationsContext, input: ImportInput): Promise<LoadedSource> {
  if (input.source !== undefined) {
    const url = checkSourceUrl(input.source);
    return { kind: 'url', url: url.href, text: await fetchText(context, url.href) };
  }
  if (input.file !== undefined) return { kind: 'file', text: Buffer.isBuffer(input.file) ? input.file.toString('utf8') : JSON.stringify(input.file) };
  const spec = input.spec!;
  return { kind: 'inline', text: typeof spec === 'string' ? spec : JSON.stringify(spec) };
}

/** The auth fields that matter for change detection (not whether the scheme was inferred). */
export const authComparable = (auth: AuthConfig) => canonical({ ...auth, inferred: undefined });

export function analysisInput(context: IntegrationsContext, text: string, sourceUrl: string | undefined, settings: ImportSettings, previous: ExistingFunction[]) {
  const auth = settings.settings.auth ?? {};
  return {
    text,
    sourceUrl,
    settings: settings.settings,
    prefix: settings.prefix,
    auth: {
      auth_scheme: auth.scheme, auth_header: auth.header, auth_query_param: auth.query_param, auth_token_url: auth.token_url,
      auth_credential_source: settings.credentialSource,
    },
    previousNames: new Map(previous.map((fn) => [fn.operation_key, fn.name])),
    fetchText: (url: string) => fetchText(context, url),
    limits: context.limits,
  };
}

function authOf(context: IntegrationsContext, analysis: Analysis, settings: ImportSettings, existing: SpecRow | undefined): AuthConfig {
  // A re-import that names no credential keeps the stored one.
  const replaced = settings.authValue !== undefined || settings.credentialSource !== undefined;
  return {
    ...analysis.auth,
    credential_source: settings.credentialSource ?? (replaced ? null : existing?.auth.credential_source ?? null),
    value_fingerprint: settings.authValue !== undefined
      ? fingerprint(context.secrets, settings.authValue)
      : replaced ? null : existing?.auth.value_fingerprint ?? null,
  };
}

export function createImportService(context: IntegrationsContext) {
  const { withTenant } = context;

  return {
    /** `progress` hears each stage (the CLI shows it; the routes need not). */
    async importSpec(tenantId: string, input: ImportInput, progress: (status: string) => void = () => {}) {
      const settings = importSettings(input);
      // Before anything is read or fetched: a value that can never resolve is bad input.
      if (settings.authValue !== undefined) checkPlaceholders(settings.authValue, context.envPolicy);
      progress(`${settings.name}: reading ${input.source ?? 'the document'}`);
      const loaded = await loadSource(context, input);
      const [existing, previous] = await withTenant(tenantId, async (trx) => {
        const spec = await specsStore.getByName(trx, settings.name);
        return [spec, spec ? await functionsStore.ofSpec(trx, spec.id) : []] as const;
      });
      progress(`${settings.name}: analysing ${loaded.text.length} characters`);
      const analysis = await analyze(analysisInput(context, loaded.text, loaded.url, settings, previous));
      const auth = authOf(context, analysis, settings, existing);
      const keepsValue = settings.authValue === undefined && settings.credentialSource === undefined && existing?.auth_value_sealed != null;
      if (keepsValue) checkStoredAuthValue(context, tenantId, existing!);
      const binding = bindingOf({ base_url: analysis.baseUrl, auth });
      const moved = existing ? originChangeWarning(bindingOf(existing), binding) : undefined;
      const authChanged = existing !== undefined && authComparable(existing.auth) !== authComparable(auth);
      const platform = await context.platformNames(tenantId);
      const plan = planChanges(analysis.functions, previous, authChanged);
      const conflicts = await withTenant(tenantId, (trx) => conflictsOf(trx, platform, plan, existing?.id));
      const valueSet = settings.authValue !== undefined || keepsValue;
      const preview = {
        dry_run: input.dry_run,
        spec: {
          id: existing?.id ?? null,
          name: settings.name,
          prefix: settings.prefix,
          source_kind: loaded.kind,
          source: loaded.url ?? null,
          format: analysis.format,
          title: analysis.title,
          api_version: analysis.apiVersion,
          content_hash: analysis.contentHash,
          base_url: analysis.baseUrl,
          auth: authView(auth, valueSet),
        },
        existing: existing ? { id: existing.id, content_hash: existing.content_hash, version: existing.version } : null,
        changes: summarize(plan),
        functions: plan.map(changeView),
        skipped: analysis.skipped,
        warnings: moved ? [...analysis.warnings, moved] : analysis.warnings,
        conflicts,
      };
      if (input.dry_run) return { created: false, result: preview };
      if (conflicts.length > 0) throw conflictError(conflicts);

      progress(`${settings.name}: writing ${plan.length} functions`);
      const stored = await withTenant(tenantId, async (trx) => {
        const current = await specsStore.lockByName(trx, settings.name);
        if (current?.id !== existing?.id) throw conflict(`Spec "${settings.name}" was imported or deleted meanwhile; import again`, 'IMPORT_CONFLICT');
        const id = current?.id ?? randomUUID();
        // A new value is bound to the spec's origin now; a kept one stays bound to the origin it was given for.
        const [sealed, sealedFor] = settings.authValue !== undefined
          ? [sealBound(context.secrets, settings.authValue, sealContext.specAuth(tenantId, id), binding), binding]
          : settings.credentialSource !== undefined ? [null, null] : [current?.auth_value_sealed ?? null, current?.auth_value_origin ?? null];
        const values = {
          name: settings.name,
          prefix: settings.prefix,
          source_kind: loaded.kind,
          source_url: loaded.url ?? null,
          document: loaded.kind === 'url' ? null : loaded.text,
          content_hash: analysis.contentHash,
          format: analysis.format,
          title: analysis.title,
          api_version: analysis.apiVersion,
          base_url: analysis.baseUrl,
          settings: settings.settings,
          auth,
          auth_value_sealed: sealed,
          auth_value_origin: sealed === null ? null : sealedFor,
          warnings: analysis.warnings,
        };
        const row = current
          ? await specsStore.update(trx, id, { ...values, last_sync_result: 'imported' })
          : await specsStore.insert(trx, id, tenantId, values);
        // Planned again under the lock: the functions may have changed since the preview was read.
        const fresh = planChanges(analysis.functions, await functionsStore.ofSpec(trx, id), authChanged);
        const events = await applyPlan(trx, tenantId, { id, name: settings.name }, fresh);
        await context.announce(trx, tenantId, events);
        return { row: (await specsStore.get(trx, id)) ?? row, plan: fresh };
      });
      context.invalidate(tenantId);
      return {
        created: existing === undefined,
        result: { ...preview, spec: specView(stored.row), changes: summarize(stored.plan), functions: stored.plan.map(changeView) },
      };
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
