// The one factory of the workflows plugin's services: its register and its
// CLI commands both build them here, from the core's services and the
// manifest's options.
import type { CoreServices } from 'agent-platform/sdk';
import type { WorkflowsApi } from './api.ts';
import type { WorkflowsOptions } from './options.ts';
import { GateRegistry } from './execution/gates.ts';
import { createRunner } from './execution/runner.ts';
import { createWorkflowsService } from './services/workflows.ts';

export function createServices(core: CoreServices, options: WorkflowsOptions) {
  // A step job may also fail after its action ran (the database was briefly
  // away): two attempts beyond the action's own let it still record the result.
  const gates = new GateRegistry();
  const runner = createRunner(core, { stepMaxAttempts: options.actionAttempts + 2, gates });
  const workflows = createWorkflowsService(core, runner, gates);
  const api: WorkflowsApi = {
    start: (trx, tenantId, name, inputs, origin) => runner.start(trx, tenantId, name, inputs, origin),
    startBatch: (trx, tenantId, names) => runner.startBatch(trx, tenantId, names),
    signal: (tenantId, executionId, signal) => runner.signal(tenantId, executionId, signal),
    registerGate: (kind, gate) => gates.register(kind, gate),
    resolveGate: (tenantId, ref, output) => runner.resolveGate(tenantId, ref, output),
  };
  return { runner, workflows, api };
}

export type WorkflowsServices = ReturnType<typeof createServices>;
