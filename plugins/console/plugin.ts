// Console: the web console for operators and staff, served at /console/
// (built from app/ by scripts/build-console.ts), its sign-in configuration and
// one-time sign-in links, and the tenant's usage (the `console.usage`
// extension point). Registration only: the logic is in the services.
import { coreOf, definePlugin, perMinute } from 'agent-platform/sdk';
import type { ConsoleOptions } from './options.ts';
import { consoleRoutes } from './routes/console.ts';
import { pageRoutes } from './routes/pages.ts';
import { createServices } from './services.ts';
import { PRUNE_CRON, PRUNE_TASK, pruneHandler } from './tasks/console.prune_links.ts';
import './store/tables.ts';

export { cli } from './cli.ts';
export { optionsSchema } from './options.ts';

export const plugin = definePlugin({
  name: 'console',
  version: '0.1.0',
  dependencies: ['tenancy'],
  extensionPoints: { 'console.usage': 'A usage counter (key, count(tenantId, since)): rows a tenant created since a date, shown on the Overview' },
  async register(server, options: ConsoleOptions) {
    const core = coreOf(server);
    const { links, usage } = createServices(core, options);
    core.extensions.consume('console.usage', (counter, contributor) => usage.add(counter, contributor));
    const issuer = core.config.oidcIssuerUrl;
    const oidc = issuer && options.oidcClientId ? { issuer, client_id: options.oidcClientId } : null;
    const rateLimit = core.rateLimits.limiter('console.link', perMinute(options.linkRatePerMinute, (seconds) => `Too many sign-in link exchanges; retry in ${seconds} s`));
    server.route([...pageRoutes(issuer, options.mapTileUrl), ...consoleRoutes(links, usage, rateLimit, { oidc, map: { tile_url: options.mapTileUrl } })]);
    core.jobs.defineLongTask(PRUNE_TASK, pruneHandler(links), { retryLimit: 1 });
    await core.jobs.schedule(PRUNE_TASK, PRUNE_TASK, PRUNE_CRON);
  },
});
