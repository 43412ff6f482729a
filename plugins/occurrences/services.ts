// The one factory of the occurrences plugin's services and of the api other
// plugins use: its register and its CLI commands both build them here. The
// forms plugin's API (Form.io validation of v1 form schemas) is read when
// first needed: a CLI command runs without a server, and none of its commands
// validates a form.
import { perMinute, type CoreServices } from 'agent-platform/sdk';
import type { FormsApi } from '../forms/api.ts';
import type { MailApi } from '../mail/api.ts';
import type { OccurrencesApi } from './api.ts';
import type { OccurrencesOptions } from './options.ts';
import { createBackofficeService } from './services/backoffice.ts';
import { createIntake } from './services/intake.ts';
import { createMessaging } from './services/messaging.ts';
import { createOpen311Service } from './services/open311.ts';
import { createSettingsService } from './services/settings.ts';
import { createStatesService } from './services/states.ts';
import { createSupportsService } from './services/supports.ts';
import { createTemplatesService } from './services/templates.ts';
import { createTrackingService } from './services/tracking.ts';
import { createTypesService } from './services/types.ts';

const noForms = (): FormsApi => {
  throw new Error('the forms plugin is not loaded here');
};

export function createServices(core: CoreServices, options: OccurrencesOptions, forms: () => FormsApi = noForms, mail: () => MailApi | undefined = () => undefined) {
  const messaging = createMessaging(core, options, mail);
  const intake = createIntake(core, forms, messaging);
  const backoffice = createBackofficeService(core);
  const api: OccurrencesApi = {
    targetModel: 'occurrences.Occurrence',
    async find(tenantId, id) {
      const row = await backoffice.find(tenantId, id);
      return row && { id: row.id, reference: row.reference, occurrence_type: row.occurrence_type, title: row.title, state: row.state, created_at: row.created_at };
    },
  };
  return {
    types: createTypesService(core, forms),
    intake,
    open311: createOpen311Service(core, intake),
    states: createStatesService(core, messaging),
    backoffice,
    settings: createSettingsService(core),
    supports: createSupportsService(core, options),
    templates: createTemplatesService(core, messaging),
    tracking: createTrackingService(core),
    limiters: {
      address: core.rateLimits.limiter('occurrences.address', perMinute(options.publicAddressRatePerMinute,
        () => `Too many anonymous requests from this address: at most ${options.publicAddressRatePerMinute} a minute`, () => core.clock.now().getTime())),
      tenant: core.rateLimits.limiter('occurrences.tenant', perMinute(options.publicRatePerMinute,
        () => `Too many anonymous requests from this address: at most ${options.publicRatePerMinute} a minute per tenant`, () => core.clock.now().getTime())),
    },
    api,
  };
}

export type OccurrencesServices = ReturnType<typeof createServices>;
