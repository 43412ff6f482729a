// Starting executions, one or many at a time, in the caller's transaction. A
// dispatch batch of the events plugin starts up to its batch size of
// workflows in one transaction: the definitions are read once (one query for
// every name the batch may start), each start's first advance is taken in
// memory, and flush() writes every execution and every first job in one
// statement (a multi-row insert beside one add_jobs call). A single start (the execute endpoint, a safe
// re-dispatch) is a batch of one: the same three round trips as before.
//
// With `inline` (the server), the engine's first advance is stored with the
// row when it only schedules work (its first action's job, or a wait's
// deadline): a job fewer per execution. Otherwise (the first advance would end
// the execution and emit its event, which must not happen in a transaction
// that may be dispatching the stream; or the CLI, which has the queue but no
// event backend) a `workflows.start` job takes it in the server's workers.
import { randomUUID } from 'node:crypto';
import { type Actor, type JobSpec, type JobsApi, notFound, type TenantTransaction, withTraceContext } from 'agent-platform/sdk';
import { advance, type EngineCommand } from '../../../workflows/engine/index.ts';
import type { StartBatch, StartedExecution, WorkflowOrigin } from '../api.ts';
import { definitionsStore, executionsStore, type NewExecution } from '../store/workflows.ts';
import { START_TASK, STEP_TASK, TIMEOUT_TASK, stepKey, timeoutKey } from './job-names.ts';

export interface InlineStart {
  stepMaxAttempts: number;
}

type Jobs = Pick<JobsApi, 'enqueueMany'>;

const QUIET = new Set<EngineCommand['kind']>(['run_action', 'wait']);

/** A gate to open (an APPROVAL step reached), with the sequence number of this visit. */
export interface GateToOpen {
  step_id: string;
  seq: number;
  request: Extract<EngineCommand, { kind: 'open_gate' }>['request'];
}

/**
 * The jobs of an advance that schedules work, and the gates it opens; returns
 * them with the new step sequence number (each action, wait and gate takes one).
 */
/** What every job of an execution carries. */
export interface ExecutionJobBase {
  tenant_id: string;
  execution_id: string;
  /** The execution's origin.acting_for: whom its ACTION steps call functions for. */
  acting_for?: Actor;
}

/** The fields every job of an execution carries (whom its steps act for comes from its origin). */
export function jobBase(tenantId: string, executionId: string, origin: WorkflowOrigin | null | undefined): ExecutionJobBase {
  return { tenant_id: tenantId, execution_id: executionId, ...(origin?.acting_for ? { acting_for: origin.acting_for } : {}) };
}

export function scheduledJobs(
  base: ExecutionJobBase, seq: number, commands: EngineCommand[], stepMaxAttempts: number | undefined,
): { jobs: JobSpec[]; seq: number; gates: GateToOpen[] } {
  const jobs: JobSpec[] = [];
  const gates: GateToOpen[] = [];
  for (const command of commands) {
    if (command.kind === 'run_action') {
      seq += 1;
      jobs.push({
        name: STEP_TASK, maxAttempts: stepMaxAttempts, jobKey: stepKey(base.execution_id, seq),
        payload: { ...base, step_id: command.step_id, seq, handler: command.handler, arguments: command.arguments },
      });
    } else if (command.kind === 'wait') {
      seq += 1;
      jobs.push({
        name: TIMEOUT_TASK, payload: { ...base, step_id: command.step_id, seq },
        jobKey: timeoutKey(base.execution_id, command.step_id), runAt: new Date(command.until),
      });
    } else if (command.kind === 'open_gate') {
      seq += 1;
      gates.push({ step_id: command.step_id, seq, request: command.request });
    }
  }
  return { jobs, seq, gates };
}

export async function openStartBatch(
  jobs: Jobs, trx: TenantTransaction, tenantId: string, names: Iterable<string>, inline?: InlineStart,
): Promise<StartBatch> {
  const definitions = new Map((await definitionsStore.getMany(trx, [...new Set(names)])).map((row) => [row.name, {
    row,
    snapshot: { name: row.name, description: row.description, steps: row.steps },
    /** Serialized once per batch: every execution of it stores the same snapshot. */
    snapshotJson: JSON.stringify({ name: row.name, description: row.description, steps: row.steps }),
  }]));
  let rows: NewExecution[] = [];
  let specs: JobSpec[] = [];

  return {
    add(name, inputs, origin) {
      const definition = definitions.get(name);
      if (!definition) throw notFound(`Workflow not found: ${name}`, 'WORKFLOW_NOT_FOUND');
      const id = randomUUID();
      const values = {
        id, tenant_id: tenantId, workflow_name: name, workflow_version: definition.row.version, definitionJson: definition.snapshotJson, inputs, origin,
      };
      const first = inline ? advance(definition.snapshot, null, { kind: 'start', inputs, now: Date.now() }) : undefined;
      // A first job carries the trace active now (an event's dispatch), not the one of the flush.
      if (first && first.commands.every((command) => QUIET.has(command.kind))) {
        const scheduled = scheduledJobs(jobBase(tenantId, id, origin), 0, first.commands, inline!.stepMaxAttempts);
        rows.push({ ...values, status: first.state.status, state: first.state, step_seq: scheduled.seq });
        specs.push(...scheduled.jobs.map((job) => ({ ...job, payload: withTraceContext(job.payload) })));
        return { execution_id: id, workflow_name: name, status: first.state.status };
      }
      rows.push(values);
      specs.push({ name: START_TASK, payload: withTraceContext({ tenant_id: tenantId, execution_id: id }) });
      return { execution_id: id, workflow_name: name, status: 'running' };
    },

    async flush(alongside = []) {
      const [executions, firstJobs] = [rows, specs];
      rows = [];
      specs = [];
      const insert = executions.length > 0 ? [executionsStore.insertManyQuery(trx, executions)] : [];
      await jobs.enqueueMany(firstJobs, trx, { alongside: [...alongside, ...insert] });
    },
  };
}

/** Creates one execution in the caller's transaction (a batch of one). */
export async function startExecution(
  jobs: Jobs, trx: TenantTransaction, tenantId: string, name: string,
  inputs: Record<string, unknown>, origin: WorkflowOrigin, inline?: InlineStart,
): Promise<StartedExecution> {
  const batch = await openStartBatch(jobs, trx, tenantId, [name], inline);
  const started = batch.add(name, inputs, origin);
  await batch.flush();
  return started;
}
