// Occurrences: citizens report occurrences (public submission with duplicate
// detection, rate limited) and follow them on a public tracking page, staff
// work them in a backoffice (list, detail,
// a per-tenant state graph with recorded transitions). Contributes the
// occurrences.Occurrence hydration target to the forms plugin's
// `forms.targets` extension point. Registration only.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type {} from '../forms/api.ts';
import type {} from '../mail/api.ts';
import type {} from '../console/api.ts';
import { EVENT_TYPES } from './event-types.ts';
import { resolvers, typeDefs } from './graphql.ts';
import { optionsSchema, type OccurrencesOptions } from './options.ts';
import { occurrencesStore } from './store/occurrences.ts';
import { backofficeRoutes } from './routes/backoffice.ts';
import { open311Routes } from './routes/open311.ts';
import { publicTenant } from './routes/public-caller.ts';
import { publicRoutes } from './routes/public.ts';
import { templateRoutes } from './routes/templates.ts';
import { trackingRoutes } from './routes/tracking.ts';
import { typeRoutes } from './routes/types.ts';
import { createServices } from './services.ts';
import { occurrenceTarget } from './domain/target.ts';
import './store/tables.ts';

export { cli } from './cli.ts';
export { optionsSchema };

export const plugin = definePlugin({
  name: 'occurrences',
  version: '0.1.0',
  dependencies: ['tenancy', 'forms'],
  // E-mail templates are delivered through the mail plugin's outbox when the manifest loads it.
  optionalDependencies: ['mail'],
  register(server, options: OccurrencesOptions, deps) {
    const core = coreOf(server);
    const services = createServices(core, options, () => deps.forms, () => deps.mail);
    const tenantOfPublic = publicTenant(core, options, services.limiters);
    core.events.registerTypes(EVENT_TYPES);
    core.extensions.contribute('forms.targets', occurrenceTarget(services.intake));
    // The console's Overview counts the occurrences a tenant received this week.
    if (core.extensions.has('console.usage')) {
      core.extensions.contribute('console.usage', { key: 'occurrences', count: (tenantId, since) => core.withTenant(tenantId, (trx) => occurrencesStore.createdSince(trx, since)) });
    }
    // public_submit takes file tokens: a tenant taking reports takes its citizens' anonymous uploads.
    deps.forms.allowAnonymousUploads({ plugin: 'occurrences', allows: (trx) => services.intake.takesReports(trx) });
    server.route([
      ...typeRoutes(services.types, tenantOfPublic),
      ...publicRoutes(services, tenantOfPublic, options.trustProxy),
      ...backofficeRoutes(services.backoffice, services.states, services.settings),
      ...templateRoutes(services.templates),
      ...open311Routes(services.open311, tenantOfPublic),
      ...trackingRoutes(services.tracking, tenantOfPublic),
    ]);
    core.graphql.extend({ typeDefs, resolvers: resolvers(services.backoffice, services.states) });
    server.expose('api', services.api);
  },
});
