// Shared by the embed tests: a platform with chat and the embed plugin on a
// fresh database, a tenant with an admin, a default client (`web`, the
// tenant's oldest) and an embeddable one (`shop`: enabled for
// https://shop.example, with an embed credential), and helpers that act as a
// host backend (client credentials, minting) and as a page (Origin, marker).
import { startTestPlatform, tenantWithAdmin, type Tap, type TestPlatform, type TestPlatformOptions } from 'agent-platform/sdk/testing';

export const MANIFEST = 'test/fixtures/manifests/embed.yaml';
export const ORIGIN = 'https://shop.example';

export interface EmbedFixture {
  tp: TestPlatform;
  token: string;
  tenant: string;
  webClientId: number;
  clientId: number;
  clientKey: string;
  credential: { service_account_client_id: string; client_secret: string };
}

export async function embedFixture(t: Tap, options: TestPlatformOptions & { alias?: string; manifest?: string } = {}): Promise<EmbedFixture> {
  const { alias = 'acme', manifest = MANIFEST, ...platformOptions } = options;
  const tp = await startTestPlatform(t, { ...platformOptions, env: { PLATFORM_MANIFEST: manifest, LLM_BASE_URL: '', ...platformOptions.env } });
  if (!platformOptions.listen) await tp.platform.start();
  const { token } = await tenantWithAdmin(tp, alias);
  const web = await createClient(tp, token, 'web', `ck_${alias}_web`);
  const shop = await createClient(tp, token, 'shop', `ck_${alias}_shop`);
  const configured = await tp.request({ method: 'PUT', url: `/api/admin/clients/${shop}/embed`, token, payload: { enabled: true, allowed_origins: [ORIGIN] } });
  if (configured.status !== 200) throw new Error(`configure: ${JSON.stringify(configured.body)}`);
  const credential = await tp.request({ method: 'POST', url: `/api/admin/clients/${shop}/embed-credentials`, token });
  if (credential.status !== 201) throw new Error(`credential: ${JSON.stringify(credential.body)}`);
  return { tp, token, tenant: alias, webClientId: web, clientId: shop, clientKey: `ck_${alias}_shop`, credential: credential.body };
}

export async function createClient(tp: TestPlatform, token: string, name: string, clientKey: string): Promise<number> {
  const client = await tp.request({ method: 'POST', url: '/api/admin/clients', token, payload: { name, client_key: clientKey } });
  if (client.status !== 201) throw new Error(`client: ${JSON.stringify(client.body)}`);
  return client.body.id;
}

/** The client_credentials grant, as a host backend calls it. */
export function clientCredentials(tp: TestPlatform, clientId: string, secret: string) {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }).toString();
  return tp.request({ method: 'POST', url: '/oauth/token', payload: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}

/** The embed credential's token (what a host backend holds). */
export async function backendToken(f: EmbedFixture): Promise<string> {
  const answer = await clientCredentials(f.tp, f.credential.service_account_client_id, f.credential.client_secret);
  if (answer.status !== 200) throw new Error(`client credentials: ${JSON.stringify(answer.body)}`);
  return answer.body.access_token;
}

export function mint(tp: TestPlatform, bearer: string | undefined, payload: Record<string, unknown>, origin: string | null = ORIGIN) {
  return tp.request({ method: 'POST', url: '/api/embed/tokens', token: bearer, payload, headers: origin === null ? {} : { origin } });
}

/** An embed token for one external user of the fixture's client. */
export async function embedToken(f: EmbedFixture, externalUserId = 'user-1', extra: Record<string, unknown> = {}): Promise<string> {
  const answer = await mint(f.tp, await backendToken(f), { client_key: f.clientKey, external_user_id: externalUserId, display_name: `User ${externalUserId}`, ...extra });
  if (answer.status !== 200) throw new Error(`mint: ${JSON.stringify(answer.body)}`);
  return answer.body.access_token;
}

/** The headers of the widget on the host page: its Origin and the embed marker. */
export const page = (origin = ORIGIN) => ({ origin, 'x-platform-embed': '1' });
