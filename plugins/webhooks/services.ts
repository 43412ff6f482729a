// The one factory of the webhooks plugin's services: its register and its CLI
// commands both build them here, from the core's services and the manifest's
// options. Signed resume delivers signals through the workflows plugin, which
// only the server has.
import { type CoreServices, UsageError } from 'agent-platform/sdk';
import type { WorkflowsApi } from '../workflows/api.ts';
import { secretsFrom, type WebhooksOptions } from './options.ts';
import { createReceiverService } from './services/receiver.ts';
import { createResumeService } from './services/resume.ts';
import { createWebhooksService } from './services/webhooks.ts';

const serverOnly = (): WorkflowsApi => {
  throw new UsageError('resuming workflows needs the server');
};

export function createServices(core: CoreServices, options: WebhooksOptions, workflows: () => WorkflowsApi = serverOnly) {
  return {
    webhooks: createWebhooksService(core),
    // Signed resume takes no shared secret: only each tenant's own signs for it.
    resume: createResumeService(core, {
      signatureRetentionHours: options.signatureRetentionHours ?? 24,
      rateLimitPerMinute: options.rateLimitPerMinute ?? 60,
      workflows,
    }),
    receiver: createReceiverService(core, { sharedSecret: secretsFrom(core.config.env).sharedSecret }),
  };
}

export type WebhooksServices = ReturnType<typeof createServices>;
