// CLI commands of the webhooks plugin. The CLI acts as the operator (it holds
// the database and the master key). `webhooks sign` needs neither: it prints
// the headers a sender must send, computed by the same code the server checks.
import { readFile } from 'node:fs/promises';
import type { CoreServices } from 'agent-platform/sdk';
import { defineCli, UsageError } from 'agent-platform/sdk/cli';
import type { WebhooksOptions } from './options.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;
const name = { type: 'string', description: 'webhook name', required: true } as const;

/** `--body @file` reads the body from a file (its exact bytes are what is signed). */
async function bodyOf(value: string): Promise<Buffer> {
  return value.startsWith('@') ? readFile(value.slice(1)) : Buffer.from(value, 'utf8');
}

const SCHEMES = ['x-webhook', 'standard'];

function schemeOf(value: string | undefined): string {
  if (value === undefined) return 'x-webhook';
  if (!SCHEMES.includes(value)) throw new UsageError(`--scheme must be one of ${SCHEMES.join(', ')}`);
  return value;
}

function timestampOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,12}$/.test(value)) throw new UsageError('--timestamp must be Unix seconds');
  return Number(value);
}

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const services = async (core: CoreServices, options: WebhooksOptions) => (await import('./services.ts')).createServices(core, options);

export const cli = defineCli(services, (command) => [
  command({
    name: 'webhooks create',
    description: 'Create an event webhook in a tenant; prints its secret (shown once)',
    options: { tenant, name, description: { type: 'string', description: 'what sends to it' } },
    run: ({ webhooks }, { options }) => webhooks.create(options.tenant, { name: options.name, description: options.description }),
  }),
  command({
    name: 'webhooks rotate',
    description: 'Give an event webhook a new secret (the old one stops working at once); prints it',
    options: { tenant, name },
    run: ({ webhooks }, { options }) => webhooks.rotate(options.tenant, options.name),
  }),
  command({
    name: 'webhooks list',
    description: 'List a tenant\'s event webhooks',
    options: { tenant },
    run: ({ webhooks }, { options }) => webhooks.list(options.tenant),
  }),
  command({
    name: 'webhooks signing-secret',
    description: 'Create or rotate the tenant\'s signing secret for signed resume; prints it, and its whsec_ form for Standard Webhooks libraries (shown once)',
    options: { tenant },
    run: async ({ webhooks }, { options }) => {
      const { created: _created, ...secret } = await webhooks.setSigningSecret(options.tenant);
      const { standardSecretOf } = await import('./signing/signing.ts');
      return { ...secret, standard_secret: standardSecretOf(secret.secret) };
    },
  }),
  command({
    name: 'webhooks sign',
    description: 'Print the headers of a signed-resume request (no database needed); --body @file reads a file; '
      + '--scheme standard: Standard Webhooks headers (recommended), x-webhook (default): X-Webhook-*',
    offline: true,
    options: {
      secret: { type: 'string', description: 'the tenant\'s signing secret (as printed, or its whsec_ form)', required: true },
      body: { type: 'string', description: 'the exact JSON body to send, or @file', required: true },
      scheme: { type: 'string', description: 'x-webhook (default) or standard' },
      id: { type: 'string', description: 'the id header (a new one when absent)' },
      timestamp: { type: 'string', description: 'the timestamp header in Unix seconds (now when absent)' },
    },
    run: async (_services, { options }) => {
      const { signedHeaders, standardSignedHeaders } = await import('./signing/signing.ts');
      const sign = schemeOf(options.scheme) === 'standard' ? standardSignedHeaders : signedHeaders;
      return sign(options.secret, await bodyOf(options.body), {
        id: options.id,
        timestamp: timestampOf(options.timestamp),
      });
    },
  }),
]);
