// From a document's text to the functions an import would create: parse,
// detect the format, read the server URL and auth, resolve $refs, list and
// filter the operations, name them, derive each function. Nothing is stored
// here; the import and sync services compare the result with what exists.
import { createHash } from 'node:crypto';
import { badRequest } from 'agent-platform/sdk';
import type { AuthConfig, DerivedFunction, SpecFormat, SpecSettings, Warning } from './model.ts';
import { type AuthSettings, authConfigOf } from './auth.ts';
import { deriveFunction } from './derive.ts';
import { describeDocument, detectFormat, parseDocumentText } from './document.ts';
import { applyFilters } from './filters.ts';
import { nameOperations } from './naming.ts';
import { listOperations } from './operations.ts';
import { resolveDocument } from './resolve.ts';
import { checkSchemas } from './schema-check.ts';
import { baseUrlOf } from './servers.ts';

export interface AnalyzeInput {
  text: string;
  sourceUrl?: string;
  settings: SpecSettings;
  /** Normalized (snake_case ending in `_`, or empty). */
  prefix: string;
  auth: AuthSettings;
  /** Operation key to the name it has in the existing import. */
  previousNames: Map<string, string>;
  fetchText(url: string): Promise<string>;
  limits: { maxOperations: number; maxExternalDocuments: number; resolveTimeoutMs: number };
}

export interface Analysis {
  format: SpecFormat;
  title: string;
  apiVersion: string;
  contentHash: string;
  baseUrl: string | null;
  auth: Omit<AuthConfig, 'value_fingerprint'>;
  functions: DerivedFunction[];
  skipped: { operation: string; reason: string }[];
  warnings: Warning[];
}

function hashOf(text: string, externals: { url: string; text: string }[]): string {
  const hash = createHash('sha256').update(text);
  for (const external of [...externals].sort((a, b) => a.url.localeCompare(b.url))) hash.update(`\u0000${external.url}\u0000${external.text}`);
  return `sha256:${hash.digest('hex')}`;
}

function refWarning(path: string[], message: string): Warning {
  const [root, template, method] = path;
  const operation = root === 'paths' && template && method ? `${method.toUpperCase()} ${template}` : undefined;
  const where = path.length ? ` at ${path.join('.')}` : '';
  return { ...(operation ? { operation } : {}), message: `$ref not resolved${where}: ${message}` };
}

export async function analyze(input: AnalyzeInput): Promise<Analysis> {
  const doc = parseDocumentText(input.text);
  const format = detectFormat(doc);
  const { title, version } = describeDocument(doc);
  const base = baseUrlOf(doc, format, input.sourceUrl, input.settings.base_url);
  const resolved = await resolveDocument(doc, {
    sourceUrl: input.sourceUrl,
    fetchText: input.fetchText,
    maxExternalDocuments: input.limits.maxExternalDocuments,
    timeoutMs: input.limits.resolveTimeoutMs,
  });
  const { auth, warnings: authWarnings } = authConfigOf(resolved.api, format, input.auth, input.sourceUrl);
  const operations = listOperations(resolved.api, format);
  if (operations.length > input.limits.maxOperations) {
    throw badRequest(`The document has ${operations.length} operations; at most ${input.limits.maxOperations} can be imported (filter with include/exclude)`, 'SPEC_TOO_LARGE');
  }
  const { kept, skipped } = applyFilters(operations, input.settings.include, input.settings.exclude);
  const overrides = input.settings.function_names ?? {};
  const names = nameOperations(kept, input.prefix, overrides, input.previousNames);
  const functions = kept.map((op) => checkSchemas({ name: names.get(op.key)!, ...deriveFunction(op, format) }));
  const known = new Set(operations.flatMap((op) => [op.key, ...(op.operationId ? [op.operationId] : [])]));
  const warnings: Warning[] = [
    ...base.warnings,
    ...authWarnings,
    ...resolved.problems.map((p) => refWarning(p.path, p.message)),
    ...Object.keys(overrides).filter((key) => !known.has(key)).map((key) => ({ message: `function_names: no operation matches "${key}"` })),
  ];
  return {
    format,
    title,
    apiVersion: version,
    contentHash: hashOf(input.text, resolved.externals),
    baseUrl: base.baseUrl,
    auth,
    functions,
    skipped,
    warnings,
  };
}
