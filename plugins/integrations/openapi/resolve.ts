// Resolves every $ref of a document with @apidevtools/swagger-parser (the
// json-schema-ref-parser engine): local pointers, and remote documents only
// on the origin the document itself came from (a spec is user-supplied: it
// must not make the platform read local files or other hosts). Circular
// references become circular objects (the schema converter stops at them);
// a $ref that cannot be resolved becomes null and is reported with its
// location, so the import goes on with a warning instead of failing.
import { badRequest } from 'agent-platform/sdk';

export interface ExternalDocument {
  url: string;
  text: string;
}

export interface RefProblem {
  /** Where the $ref was, as JSON path segments (e.g. ['paths', '/pets', 'post', 'requestBody', ...]). */
  path: string[];
  message: string;
}

export interface ResolvedDocument {
  api: Record<string, any>;
  externals: ExternalDocument[];
  problems: RefProblem[];
}

export interface ResolveOptions {
  /** Where the document came from; remote $refs are read only from this origin. Absent: no remote $refs. */
  sourceUrl?: string;
  /** Reads a remote document (address guard, timeout and size cap are the caller's). */
  fetchText(url: string): Promise<string>;
  maxExternalDocuments: number;
  timeoutMs: number;
}

/** The path given for documents without a source: no remote $ref can share its origin. */
const NO_SOURCE = 'https://inline.spec.invalid/openapi.json';

export async function resolveDocument(doc: Record<string, unknown>, options: ResolveOptions): Promise<ResolvedDocument> {
  const base = options.sourceUrl ?? NO_SOURCE;
  const origin = options.sourceUrl ? new URL(options.sourceUrl).origin : undefined;
  const externals: ExternalDocument[] = [];
  const sameOrigin = {
    order: 1,
    canRead: /^https?:\/\//i,
    async read(file: { url: string }) {
      const url = new URL(file.url);
      if (!origin) throw new Error(`remote $ref ${url.href} refused: a document without a source URL can only use local $refs`);
      if (url.origin !== origin) throw new Error(`remote $ref ${url.href} refused: only ${origin} (the document's own origin) may be read`);
      if (externals.length >= options.maxExternalDocuments) {
        throw new Error(`remote $ref ${url.href} refused: more than ${options.maxExternalDocuments} referenced documents`);
      }
      const text = await options.fetchText(url.href);
      externals.push({ url: url.href, text });
      return text;
    },
  };
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const parser = new SwaggerParser();
  const parserOptions = {
    // No local files and no other hosts: only the resolver above reads anything.
    resolve: { file: false, http: false, external: true, sameOrigin },
    dereference: { circular: true },
    continueOnError: true,
    timeoutMs: options.timeoutMs,
  };
  const problems: RefProblem[] = [];
  try {
    await (parser.dereference as unknown as (path: string, api: unknown, options: unknown) => Promise<unknown>).call(parser, base, doc, parserOptions);
  } catch (err) {
    const group = err as { errors?: { path?: (string | number)[]; message: string }[]; name?: string };
    if (!Array.isArray(group.errors) || !(parser as unknown as { schema?: unknown }).schema) {
      throw badRequest(`The OpenAPI document could not be read: ${(err as Error).message}`, 'SPEC_INVALID');
    }
    for (const problem of group.errors) {
      problems.push({ path: (problem.path ?? []).map(String), message: problem.message.replaceAll(NO_SOURCE, '(inline document)') });
    }
  }
  const api = (parser as unknown as { schema: Record<string, any> }).schema;
  return { api, externals, problems };
}
