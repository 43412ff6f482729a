// Gates: the steps whose wait another plugin resolves (APPROVAL: the approvals
// plugin). The engine stays generic: it asks for a gate to be opened and
// takes a gate_result; the plugin that owns the gate registers its handler
// here through the workflows api (registerGate), so workflows boots and runs
// without it, and an APPROVAL step is refused at validation with the name of
// the missing plugin.
import type { WorkflowGate } from '../api.ts';

/** The plugin that provides each gate, for the message when it is missing. */
const PROVIDERS: Record<string, string> = { approval: 'approvals' };

export class GateRegistry {
  private readonly gates = new Map<string, WorkflowGate>();

  register(kind: 'approval', gate: WorkflowGate): void {
    if (this.gates.has(kind)) throw new Error(`workflows: the ${kind} gate is registered twice`);
    this.gates.set(kind, gate);
  }

  get(kind: string): WorkflowGate | undefined {
    return this.gates.get(kind);
  }

  /** Why a step of type `stepType` cannot run here, or undefined when its gate is registered. */
  missing(stepType: string): string | undefined {
    const kind = stepType === 'APPROVAL' ? 'approval' : undefined;
    if (!kind || this.gates.has(kind)) return undefined;
    return `${stepType} steps need the ${PROVIDERS[kind]} plugin, which this deployment does not load`;
  }
}
