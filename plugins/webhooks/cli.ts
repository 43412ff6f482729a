// CLI commands of the webhooks plugin. The CLI acts as the operator (it holds
// the database and the master key). `webhooks sign` needs neither: it prints
// the headers a sender must send, computed by the same code the server checks.
import { readFile } from 'node:fs/promises';
import type { CliCommand } from '../../core/cli/commands.ts';
import { UsageError } from '../../core/cli/commands.ts';
import { createWebhooksService } from './service.ts';
import { signedHeaders } from './signing.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;
const name = { type: 'string', description: 'webhook name', required: true } as const;

/** `--body @file` reads the body from a file (its exact bytes are what is signed). */
async function bodyOf(value: string): Promise<Buffer> {
  return value.startsWith('@') ? readFile(value.slice(1)) : Buffer.from(value, 'utf8');
}

function timestampOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,12}$/.test(value)) throw new UsageError('--timestamp must be Unix seconds');
  return Number(value);
}

export const cli: CliCommand[] = [
  {
    name: 'webhooks create',
    description: 'Create an event webhook in a tenant; prints its secret (shown once)',
    options: { tenant, name, description: { type: 'string', description: 'what sends to it' } },
    run: (core, { options }) =>
      createWebhooksService(core).create(options.tenant as string, { name: options.name as string, description: options.description as string | undefined }),
  },
  {
    name: 'webhooks rotate',
    description: 'Give an event webhook a new secret (the old one stops working at once); prints it',
    options: { tenant, name },
    run: (core, { options }) => createWebhooksService(core).rotate(options.tenant as string, options.name as string),
  },
  {
    name: 'webhooks list',
    description: 'List a tenant\'s event webhooks',
    options: { tenant },
    run: (core, { options }) => createWebhooksService(core).list(options.tenant as string),
  },
  {
    name: 'webhooks signing-secret',
    description: 'Create or rotate the tenant\'s signing secret for signed resume; prints it (shown once)',
    options: { tenant },
    run: async (core, { options }) => {
      const { created: _created, ...secret } = await createWebhooksService(core).setSigningSecret(options.tenant as string);
      return secret;
    },
  },
  {
    name: 'webhooks sign',
    description: 'Print the headers of a signed-resume request (no database needed); --body @file reads a file',
    offline: true,
    options: {
      secret: { type: 'string', description: 'the tenant\'s signing secret (or WEBHOOK_SECRET)', required: true },
      body: { type: 'string', description: 'the exact JSON body to send, or @file', required: true },
      id: { type: 'string', description: 'X-Webhook-Id (a new UUID when absent)' },
      timestamp: { type: 'string', description: 'X-Webhook-Timestamp in Unix seconds (now when absent)' },
    },
    run: async (_core, { options }) =>
      signedHeaders(options.secret as string, await bodyOf(options.body as string), {
        id: options.id as string | undefined,
        timestamp: timestampOf(options.timestamp),
      }),
  },
];
