// What the services share, built once by the plugin (or by a CLI command):
// the core's tenant transactions and secrets, the guarded HTTP client, how
// definition events go out, and the limits.
import { badRequest, domainError, type SecretBox, type WithTenant } from 'agent-platform/sdk';
import type { EnvPolicy } from '../env/policy.ts';
import type { Announce } from '../announce/events.ts';
import type { HttpClient } from '../calling/http-client.ts';

export interface Limits {
  maxSpecBytes: number;
  maxOperations: number;
  maxExternalDocuments: number;
  resolveTimeoutMs: number;
}

export interface IntegrationsContext {
  withTenant: WithTenant;
  secrets: SecretBox;
  /** Which variables ${VAR} placeholders in auth values may name. */
  envPolicy: EnvPolicy;
  http: HttpClient;
  announce: Announce;
  /** Clears this process's cached definitions of a tenant after a change. */
  invalidate(tenantId: string): void;
  /** Names of platform functions (an imported function may not shadow one); empty where unknown (CLI). */
  platformNames(tenantId: string): Promise<Set<string>>;
  limits: Limits;
}

/** A source URL must be http(s) and carry no user:password (it is shown in responses). */
export function checkSourceUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`source: ${JSON.stringify(value)} is not a URL`, 'VALIDATION_FAILED');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('source: only http and https URLs can be imported', 'VALIDATION_FAILED');
  if (url.username || url.password) throw badRequest('source: a URL with user:password is refused (it would be shown in responses)', 'VALIDATION_FAILED');
  return url;
}

/** Reads a document (or a remote $ref) over HTTP within the spec size limit. */
export async function fetchText(context: IntegrationsContext, url: string): Promise<string> {
  const response = await context.http({
    method: 'GET',
    url: new URL(url),
    headers: new Headers({ accept: 'application/json, application/yaml, text/yaml, */*;q=0.5' }),
    maxResponseBytes: context.limits.maxSpecBytes,
  });
  if (response.status < 200 || response.status >= 300) {
    throw domainError(422, `GET ${response.url} answered ${response.status}`, 'SPEC_FETCH_FAILED');
  }
  return new TextDecoder().decode(response.bytes);
}
