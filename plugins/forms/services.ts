// The one factory of the forms plugin's services: its register and its CLI
// commands both build them here, from the core's services and the manifest's options.
import { badRequest, perMinute, type CoreServices } from 'agent-platform/sdk';
import type { FormsApi } from './api.ts';
import { formsErrors } from './errors.ts';
import { validateWithFormio } from './formio/engine.ts';
import { formSchemaProblems } from './formio/schema-check.ts';
import type { FormsOptions } from './options.ts';
import { createAdminSubmissionsService } from './services/admin-submissions.ts';
import { createDefinitionsService } from './services/definitions.ts';
import { createFilesService } from './services/files.ts';
import { createHydrator } from './services/hydrate.ts';
import { createSubmissionsService } from './services/submissions.ts';
import { createTargetsService } from './services/targets.ts';
import { createUseCasesService } from './services/use-cases.ts';
import { createTargetRegistry } from './targets/registry.ts';

export function createServices(core: CoreServices, options: FormsOptions) {
  const registry = createTargetRegistry();
  const targets = createTargetsService(core, registry);
  const files = createFilesService(core, options);
  const hydrator = createHydrator(core);
  const api: FormsApi = {
    formSchemaProblems,
    claimFiles: (trx, claim) => files.claimFor(trx, claim),
    allowAnonymousUploads: (gate) => files.allowAnonymousUploads(gate),
    validateAgainstForm(schema, payload) {
      const problems = formSchemaProblems(schema);
      if (problems.length) throw formsErrors.schemaInvalid(problems);
      if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw badRequest('The payload must be an object', 'VALIDATION_FAILED');
      return validateWithFormio(schema as never, payload);
    },
  };
  return {
    registry,
    targets,
    files,
    definitions: createDefinitionsService(core),
    useCases: createUseCasesService(core, registry, targets),
    submissions: createSubmissionsService(core, registry, files, hydrator),
    adminSubmissions: createAdminSubmissionsService(core, registry, hydrator),
    limiter: core.rateLimits.limiter('forms.public', perMinute(options.publicRatePerMinute,
      () => `Too many anonymous requests from this address: at most ${options.publicRatePerMinute} a minute`, () => core.clock.now().getTime())),
    api,
  };
}

export type FormsServices = ReturnType<typeof createServices>;
