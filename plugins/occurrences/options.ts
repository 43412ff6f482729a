// The occurrences plugin's manifest options (manifests/default.yaml gives them from OCCURRENCES_* settings).
import { Joi } from 'agent-platform/sdk';

export interface OccurrencesOptions {
  /** Anonymous requests per client address and tenant per minute (OCCURRENCES_PUBLIC_RATE_LIMIT): 429 past it. */
  publicRatePerMinute: number;
  /** Anonymous requests per client address per minute, whatever tenant they name (OCCURRENCES_PUBLIC_ADDRESS_RATE_LIMIT): 429 past it. */
  publicAddressRatePerMinute: number;
  /** Take the client address from the first X-Forwarded-For entry (OCCURRENCES_TRUST_PROXY): only behind a proxy that sets it. */
  trustProxy: boolean;
  /** The public tracking page of an occurrence, `{tenant}` and `{reference}` replaced (OCCURRENCES_TRACKING_URL): the templates' `tracking_link`. */
  trackingUrl: string;
  /** Hours within which a client's repeated support of a report counts once (OCCURRENCES_SUPPORT_WINDOW_HOURS). */
  supportWindowHours: number;
}

export const optionsSchema = Joi.object({
  publicRatePerMinute: Joi.number().integer().min(1).max(100_000).default(30)
    .description('Anonymous occurrence requests (public submission, duplicate check, type reads, Open311) per client address and tenant per minute, across processes; past it 429 `RATE_LIMITED` with `Retry-After`'),
  publicAddressRatePerMinute: Joi.number().integer().min(1).max(1_000_000).default(300)
    .description('Anonymous occurrence requests per client address per minute whatever tenant they name (taken before the tenant is looked up, so made-up tenants spend it), across processes; past it 429 `RATE_LIMITED`'),
  trustProxy: Joi.boolean().default(false)
    .description('Take an anonymous occurrence caller\'s address from the first `X-Forwarded-For` entry (only behind a proxy that sets it)'),
  trackingUrl: Joi.string().pattern(/^https?:\/\/\S+$/).max(2000).default('http://localhost:8080/track/{tenant}/{reference}')
    .description('The public tracking page of an occurrence (`{tenant}` and `{reference}` replaced; the platform serves it at `/track/{tenant}/{reference}`): the message templates\' `{{tracking_link}}`'),
  supportWindowHours: Joi.number().integer().min(1).max(24 * 365).default(24)
    .description('Hours within which a citizen\'s repeated support of the same report (per client address) counts once'),
}).default({});
