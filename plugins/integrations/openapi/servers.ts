// The base URL calls go to: OpenAPI 3's first server (its variables at their
// defaults), Swagger 2.0's scheme + host + basePath; a relative server is
// resolved against the document's own URL. Read from the document before
// dereferencing (which may rewrite relative servers).
import type { SpecFormat, Warning } from './model.ts';

const isObject = (value: unknown): value is Record<string, any> => value !== null && typeof value === 'object' && !Array.isArray(value);

function absolute(candidate: string, sourceUrl: string | undefined): string | null {
  try {
    const url = sourceUrl ? new URL(candidate, sourceUrl) : new URL(candidate);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.href.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

function openapiServer(doc: Record<string, any>): string | undefined {
  const server = Array.isArray(doc.servers) ? doc.servers.find(isObject) : undefined;
  if (!server || typeof server.url !== 'string') return undefined;
  const variables = isObject(server.variables) ? server.variables : {};
  return server.url.replace(/\{([^}]+)\}/g, (whole: string, name: string) => {
    const variable = variables[name];
    return isObject(variable) && variable.default !== undefined ? String(variable.default) : whole;
  });
}

function swaggerServer(doc: Record<string, any>, sourceUrl: string | undefined): string | undefined {
  const source = sourceUrl ? new URL(sourceUrl) : undefined;
  const host = typeof doc.host === 'string' && doc.host ? doc.host : source?.host;
  if (!host) return undefined;
  const schemes: string[] = Array.isArray(doc.schemes) ? doc.schemes.map(String) : [];
  const scheme = schemes.includes('https') ? 'https' : schemes[0] ?? source?.protocol.replace(':', '') ?? 'https';
  const basePath = typeof doc.basePath === 'string' ? doc.basePath : '';
  return `${scheme}://${host}${basePath.startsWith('/') || basePath === '' ? basePath : `/${basePath}`}`;
}

export function baseUrlOf(
  doc: Record<string, any>, format: SpecFormat, sourceUrl: string | undefined, override: string | null | undefined,
): { baseUrl: string | null; warnings: Warning[] } {
  if (override) return { baseUrl: absolute(override, undefined), warnings: [] };
  const declared = format === 'swagger-2.0' ? swaggerServer(doc, sourceUrl) : openapiServer(doc);
  const baseUrl = declared === undefined ? (sourceUrl ? absolute('/', sourceUrl) : null) : absolute(declared, sourceUrl);
  const warnings: Warning[] = [];
  if (!baseUrl) {
    warnings.push({ message: 'The document names no usable server URL: set base_url, or calls will fail (BASE_URL_MISSING)' });
  } else if (/\{[^}]+\}/.test(decodeURI(baseUrl))) {
    warnings.push({ message: `The server URL ${baseUrl} has a variable without a default: set base_url` });
  }
  return { baseUrl, warnings };
}
