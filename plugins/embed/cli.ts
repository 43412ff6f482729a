// CLI: `platform clients embed create|configure|show|urls|snippet|
// credentials provision|rotate|revoke|token|smoke` (operator tooling).
// Every command is an HTTP client of a running server
// (cli/http.ts): what it does is exactly what the REST API allows.
import { defineCli, UsageError } from 'agent-platform/sdk/cli';
import { baseUrlOf, call, connectionOptions, expectOk, operatorToken } from './cli/http.ts';
import { runSmoke } from './cli/smoke.ts';

/** The widget's release the asset URLs carry (the cache key `v`). */
export const WIDGET_RELEASE = '0.3.0';

const tenant = { type: 'string', description: 'tenant alias (X-Tenant-ID)', required: true } as const;
const clientId = { type: 'string', description: 'client id', required: true } as const;

const configOptions = {
  enable: { type: 'boolean', description: 'enable embedding (--no-enable or --disable: disable it)' },
  disable: { type: 'boolean', description: 'disable embedding' },
  origin: { type: 'string', multiple: true, description: 'an allowed origin (repeatable; replaces the list)' },
  mode: { type: 'string', description: 'default display mode: launcher or inline' },
  uploads: { type: 'boolean', description: 'feature: file uploads (--no-uploads to turn off)' },
  history: { type: 'boolean', description: 'feature: reopen the last conversation' },
  feedback: { type: 'boolean', description: 'feature: thumbs and comments' },
  voice: { type: 'boolean', description: 'feature: voice input' },
  theme: { type: 'string', description: 'theme defaults as a JSON object (e.g. {"font_family":"Inter"})' },
} as const;

function positiveInt(value: string, name: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1) throw new UsageError(`--${name} must be a positive integer`);
  return parsed;
}

/** The PUT body the configuration options spell (only what was given). */
export function configBody(options: { [K in keyof typeof configOptions]?: unknown }): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (options.enable !== undefined && options.disable !== undefined) throw new UsageError('--enable and --disable: give one');
  if (options.enable !== undefined) body.enabled = options.enable;
  if (options.disable !== undefined) body.enabled = !options.disable;
  if (Array.isArray(options.origin)) body.allowed_origins = options.origin;
  if (options.mode !== undefined) {
    if (options.mode !== 'launcher' && options.mode !== 'inline') throw new UsageError('--mode must be launcher or inline');
    body.default_mode = options.mode;
  }
  const features = Object.fromEntries((['uploads', 'history', 'feedback', 'voice'] as const)
    .filter((name) => options[name] !== undefined).map((name) => [name, options[name]]));
  if (Object.keys(features).length > 0) body.features = features;
  if (options.theme !== undefined) {
    try {
      body.theme = JSON.parse(String(options.theme));
    } catch {
      throw new UsageError('--theme must be a JSON object');
    }
  }
  return body;
}

/** The widget's asset URLs under {asset base}/embed/v1/. */
export function assetUrls(base: string) {
  const at = (file: string) => `${base}/embed/v1/${file}?v=${WIDGET_RELEASE}`;
  return {
    custom_element: at('platform-chat.ce.js'),
    es_module: at('platform-chat.es.js'),
    stylesheet: at('platform-chat.css'),
    react: at('platform-chat.react.js'),
    vue: at('platform-chat.vue.js'),
  };
}

/** A host page snippet: the custom element, and a token provider that asks the host's own backend (never a token in an attribute). */
export function snippet(base: string, clientKey: string, tokenPath: string): string {
  const urls = assetUrls(base);
  return `<script type="module" src="${urls.custom_element}"></script>
<platform-chat api-url="${base}" client-key="${clientKey}" launcher></platform-chat>
<script>
  // Your backend signs its user in, then mints an embed token with the client's
  // embed credential (client_credentials at ${base}/oauth/token, then
  // POST ${base}/api/embed/tokens) and returns it. The page holds no secret.
  window.PlatformChat = window.PlatformChat || {};
  window.PlatformChat.getAccessToken = async () => {
    const response = await fetch(${JSON.stringify(tokenPath)}, { method: 'POST', credentials: 'same-origin' });
    if (!response.ok) throw new Error('embed token: HTTP ' + response.status);
    return (await response.json()).access_token;
  };
</script>`;
}

export const cli = defineCli(
  // Every command is an HTTP client of the server: no services of its own.
  () => undefined,
  (command) => [
    command({
      name: 'clients embed create',
      description: 'Create a client and set its embed configuration',
      offline: true,
      options: { ...connectionOptions, tenant, name: { type: 'string', description: 'client name', required: true }, 'client-key': { type: 'string', description: 'public key (generated when absent)' }, ...configOptions },
      async run(_, { options }) {
        const base = baseUrlOf(options);
        const token = operatorToken(options);
        const body = configBody(options);
        // The configuration is checked before the client is made, and a client of that name is never made twice:
        // a refused origin leaves nothing behind, and a retry after a failure finds the client it made.
        expectOk(await call(base, 'POST', '/api/admin/embed/config-check', { token, tenant: options.tenant, body }), 'check the configuration');
        const existing = expectOk(await call(base, 'GET', '/api/admin/clients?limit=500', { token, tenant: options.tenant }), 'list the clients') as { items: { id: number; name: string }[] };
        const taken = existing.items.find((c) => c.name === options.name);
        if (taken) throw new UsageError(`a client named "${options.name}" exists (id ${taken.id}): configure it with platform clients embed configure --client-id ${taken.id}`);
        const client = expectOk(await call(base, 'POST', '/api/admin/clients', { token, tenant: options.tenant, body: { name: options.name, ...(options['client-key'] ? { client_key: options['client-key'] } : {}) } }), 'create the client');
        return expectOk(await call(base, 'PUT', `/api/admin/clients/${client.id}/embed`, { token, tenant: options.tenant, body }), 'configure');
      },
    }),
    command({
      name: 'clients embed configure',
      description: 'Change a client\'s embed configuration (options left out are kept)',
      offline: true,
      options: { ...connectionOptions, tenant, 'client-id': clientId, ...configOptions },
      run: async (_, { options }) => expectOk(await call(baseUrlOf(options), 'PUT', `/api/admin/clients/${positiveInt(options['client-id'], 'client-id')}/embed`, {
        token: operatorToken(options), tenant: options.tenant, body: configBody(options),
      }), 'configure'),
    }),
    command({
      name: 'clients embed show',
      description: 'Show a client\'s embed configuration (--manifest: also its public manifest, as --origin sees it)',
      offline: true,
      options: {
        ...connectionOptions, tenant, 'client-id': clientId,
        manifest: { type: 'boolean', description: 'also read the public manifest' },
        origin: { type: 'string', description: 'the Origin the manifest is read from (with --manifest)' },
      },
      async run(_, { options }) {
        const base = baseUrlOf(options);
        const config = expectOk(await call(base, 'GET', `/api/admin/clients/${positiveInt(options['client-id'], 'client-id')}/embed`, { token: operatorToken(options), tenant: options.tenant }), 'show');
        if (!options.manifest) return config;
        if (!options.origin) throw new UsageError('--manifest needs --origin');
        const manifest = expectOk(await call(base, 'GET', `/api/embed/manifest/${encodeURIComponent(config.client_key)}`, { headers: { origin: options.origin } }), 'manifest');
        return { ...config, manifest };
      },
    }),
    command({
      name: 'clients embed urls',
      description: 'Print the widget\'s asset URLs',
      offline: true,
      options: { url: connectionOptions.url },
      run: async (_, { options }) => assetUrls(baseUrlOf(options)),
    }),
    command({
      name: 'clients embed snippet',
      description: 'Print a host page snippet: the custom element and a token provider calling your backend',
      offline: true,
      options: {
        url: connectionOptions.url,
        'client-key': { type: 'string', description: 'the client\'s public key', required: true },
        'token-path': { type: 'string', description: 'your backend\'s route returning an embed token (default /embed-token)' },
      },
      run: async (_, { options }) => snippet(baseUrlOf(options), options['client-key'], options['token-path'] ?? '/embed-token'),
    }),
    ...(['provision', 'rotate', 'revoke'] as const).map((action) => command({
      name: `clients embed credentials ${action}`,
      description: {
        provision: 'Provision the client\'s embed credential (the secret is shown once)',
        rotate: 'Rotate the embed credential\'s secret (the old one stops working)',
        revoke: 'Revoke the embed credential (its service account is deleted)',
      }[action],
      offline: true,
      options: { ...connectionOptions, tenant, 'client-id': clientId },
      async run(_, { options }) {
        const path = `/api/admin/clients/${positiveInt(options['client-id'], 'client-id')}/embed-credentials`;
        const [method, suffix] = action === 'provision' ? ['POST', ''] : action === 'rotate' ? ['POST', '/rotate'] : ['DELETE', ''];
        return expectOk(await call(baseUrlOf(options), method, `${path}${suffix}`, { token: operatorToken(options), tenant: options.tenant }), action);
      },
    })),
    command({
      name: 'clients embed token',
      description: 'Mint an embed token as a host backend would (with --client-id/--client-secret of the embed credential, else --token as the super-admin)',
      offline: true,
      options: {
        url: connectionOptions.url, token: connectionOptions.token,
        'client-key': { type: 'string', description: 'the client\'s public key', required: true },
        origin: { type: 'string', description: 'the host page\'s origin (allowlisted)', required: true },
        'external-user-id': { type: 'string', description: 'the host\'s id of its user', required: true },
        'display-name': { type: 'string', description: 'the user\'s display name (default: the external id)' },
        'session-id': { type: 'string', description: 'bind the token to this session' },
        'expires-in': { type: 'string', description: 'seconds' },
        'client-id': { type: 'string', description: 'the embed credential\'s service_account_client_id' },
        'client-secret': { type: 'string', description: 'its secret (default EMBED_CLIENT_SECRET)' },
        'print-token': { type: 'boolean', description: 'print only the access token' },
      },
      async run(_, { options }) {
        const base = baseUrlOf(options);
        let bearer: string;
        const secret = options['client-secret'] ?? process.env.EMBED_CLIENT_SECRET;
        if (options['client-id']) {
          if (!secret) throw new UsageError('--client-id needs --client-secret or EMBED_CLIENT_SECRET');
          const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: options['client-id'], client_secret: secret });
          bearer = expectOk(await call(base, 'POST', '/oauth/token', { body: form }), 'client credentials').access_token;
        } else {
          bearer = operatorToken(options);
        }
        const minted = expectOk(await call(base, 'POST', '/api/embed/tokens', {
          token: bearer, headers: { origin: options.origin },
          body: {
            client_key: options['client-key'], external_user_id: options['external-user-id'], display_name: options['display-name'] ?? options['external-user-id'],
            ...(options['session-id'] ? { session_id: options['session-id'] } : {}),
            ...(options['expires-in'] ? { expires_in: positiveInt(options['expires-in'], 'expires-in') } : {}),
          },
        }), 'mint');
        return options['print-token'] ? minted.access_token : minted;
      },
    }),
    command({
      name: 'clients embed smoke',
      description: 'Run the whole embed-token flow against a running server, printing each step with pass/fail',
      offline: true,
      options: {
        ...connectionOptions, tenant,
        'client-id': { type: 'string', description: 'an existing client (its credential is reused when it has one: rotated to learn the secret)' },
        'create-temp-client': { type: 'boolean', description: 'create a temporary client and delete it afterwards' },
        origin: { type: 'string', description: 'the page origin to test from (allowlisted on a temporary client)', required: true },
        question: { type: 'string', description: 'what to ask (default: a greeting)' },
      },
      async run(_, { options }) {
        if (!options['client-id'] && !options['create-temp-client']) throw new UsageError('give --client-id or --create-temp-client');
        const steps = await runSmoke({
          base: baseUrlOf(options), token: operatorToken(options), tenant: options.tenant, origin: options.origin,
          clientId: options['client-id'] ? positiveInt(options['client-id'], 'client-id') : undefined, question: options.question ?? 'Hello! Who are you?',
        });
        if (steps.some((step) => !step.ok)) process.exitCode = 1;
        return steps.map((step) => ({ step: step.name, result: step.ok ? 'pass' : 'FAIL', detail: step.detail }));
      },
    }),
  ],
);
