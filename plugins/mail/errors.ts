// The mail plugin's errors with their stable codes.
import { domainError } from 'agent-platform/sdk';

export const mailErrors = {
  invalid: (problems: string[]) => domainError(400, `The e-mail is not valid: ${problems.join('; ')}`, 'MAIL_INVALID'),
  notFound: (id: number) => domainError(404, `Outbox message not found: ${id}`, 'OUTBOX_MESSAGE_NOT_FOUND'),
  notRetryable: (state: string) => domainError(409, `The message is ${state}: only held or dead messages are retried`, 'OUTBOX_NOT_RETRYABLE'),
  notConfigured: () => domainError(409, 'No SMTP transport is configured (SMTP_URL): the message stays held', 'MAIL_NOT_CONFIGURED'),
};
