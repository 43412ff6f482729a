// The one factory of the mail plugin's services and api: its register and its
// CLI commands both build them here. The SMTP transport exists when SMTP_URL
// is set (a malformed one stops the boot with a line that never shows it).
import type { CoreServices } from 'agent-platform/sdk';
import type { MailApi } from './api.ts';
import { smtpUrlFrom, type MailOptions } from './options.ts';
import { createDelivery } from './services/delivery.ts';
import { createOutboxService } from './services/outbox.ts';
import { createSmtpTransport } from './transport/smtp.ts';

export function createServices(core: CoreServices, options: MailOptions) {
  const url = smtpUrlFrom(core.config.env);
  const transport = url ? createSmtpTransport(url, options.smtpTimeoutSeconds) : undefined;
  const outbox = createOutboxService(core, transport !== undefined);
  const delivery = createDelivery(core, options, transport);
  const api: MailApi = { send: outbox.send, configured: transport !== undefined };
  return { transport, outbox, delivery, api };
}

export type MailServices = ReturnType<typeof createServices>;
