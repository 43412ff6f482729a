// Workflow definition validation: every problem, each naming its step.
import { CONDITION_OPERATORS } from './conditions.ts';
import { validateFilter } from './filters.ts';
import { isValidTypePattern } from './patterns.ts';
import { validateTemplates } from './templates.ts';
import { branchFallThroughs } from './branches.ts';
import type { Step, WorkflowDefinition } from './types.ts';

export const WAIT_HANDLER = 'temporal:wait_for_event';
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 60;
/** A wait longer than 30 days is almost certainly a unit mistake. */
export const MAX_WAIT_TIMEOUT_SECONDS = 30 * 24 * 3600;
/** An approval case waits a week unless the step says otherwise. */
export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 7 * 24 * 3600;
const MAX_APPROVERS = 100;
const MAX_QUORUM = 100;
const MAX_TITLE_LENGTH = 500;

const NAME = /^[a-z0-9][a-z0-9_-]{0,127}$/;
const STEP_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const OUTPUT_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const FUNCTION_NAME = /^[a-z][a-z0-9_]{0,127}$/;
const DOT_PATH = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

type Result = { ok: true; definition: WorkflowDefinition } | { ok: false; errors: string[] };

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const ALLOWED_FIELDS: Record<string, string[]> = {
  ACTION: ['id', 'type', 'handler', 'arguments', 'output_key', 'next', 'end', 'description'],
  CONDITION: ['id', 'type', 'condition', 'then_step', 'else_step', 'description'],
  WAIT: ['id', 'type', 'handler', 'event_type', 'event_filter', 'timeout_seconds', 'output_key', 'next', 'end', 'description'],
  APPROVAL: ['id', 'type', 'title', 'description', 'payload', 'approvers', 'quorum', 'timeout_seconds', 'output_key', 'next', 'end'],
};

/** Problems of an approvers object: `{roles?, users?}`, lists of names, at least one entry in all. */
export function approversProblems(value: unknown): string[] {
  if (!isObject(value)) return ['approvers must be an object {roles, users}'];
  const problems: string[] = [];
  for (const key of Object.keys(value)) if (key !== 'roles' && key !== 'users') problems.push(`approvers: unknown field "${key}"`);
  let count = 0;
  for (const key of ['roles', 'users'] as const) {
    const list = value[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length > MAX_APPROVERS
      || !list.every((item) => typeof item === 'string' && item.length >= 1 && item.length <= 255 && !item.includes('\u0000'))) {
      problems.push(`approvers.${key} must be a list of up to ${MAX_APPROVERS} names (1 to 255 characters)`);
      continue;
    }
    count += list.length;
  }
  if (problems.length === 0 && count === 0) problems.push('approvers must name at least one role or user');
  return problems;
}

const isTimeout = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_WAIT_TIMEOUT_SECONDS;

export function validateDefinition(value: unknown): Result {
  const errors: string[] = [];
  if (!isObject(value)) return { ok: false, errors: ['definition must be an object'] };
  if (typeof value.name !== 'string' || !NAME.test(value.name)) {
    errors.push('name must be lowercase letters, digits, hyphens or underscores (up to 128)');
  }
  if (value.description !== undefined && typeof value.description !== 'string') errors.push('description must be a string');
  if (!Array.isArray(value.steps) || value.steps.length === 0) {
    errors.push('steps must be a non-empty array');
    return { ok: false, errors };
  }
  const ids = new Set<string>();
  const outputKeys = new Set<string>();
  value.steps.forEach((step: unknown, index: number) => {
    if (!isObject(step) || typeof step.id !== 'string' || !STEP_ID.test(step.id)) {
      errors.push(`step #${index + 1}: id must be a string of letters, digits, _ . -`);
      return;
    }
    if (ids.has(step.id)) errors.push(`step "${step.id}": id is used twice`);
    ids.add(step.id);
  });
  for (const step of value.steps as Record<string, unknown>[]) {
    if (!isObject(step) || typeof step.id !== 'string') continue;
    const at = (problem: string) => errors.push(`step "${step.id}": ${problem}`);
    const allowed = ALLOWED_FIELDS[String(step.type)];
    if (!allowed) {
      at('type must be ACTION, CONDITION, WAIT or APPROVAL');
      continue;
    }
    for (const field of Object.keys(step)) if (!allowed.includes(field)) at(`unknown field "${field}" for a ${step.type} step`);
    const target = (field: string) => {
      if (step[field] === undefined) return;
      if (typeof step[field] !== 'string' || !ids.has(step[field] as string)) at(`${field} must name a step of this workflow`);
    };
    // ACTION and WAIT: `next` names the step after, `end: true` completes the workflow; at most one of them.
    const successor = () => {
      if (step.next === null) at('next must name a step of this workflow (to end the workflow after this step, write "end": true)');
      else target('next');
      if (step.end !== undefined && typeof step.end !== 'boolean') at('end must be true or false');
      if (step.end === true && step.next !== undefined && step.next !== null) at('"next" and "end": true exclude each other');
    };
    if (step.output_key !== undefined) {
      if (typeof step.output_key !== 'string' || !OUTPUT_KEY.test(step.output_key) || step.output_key === 'inputs') {
        at('output_key must be an identifier other than "inputs"');
      } else if (outputKeys.has(step.output_key)) {
        at(`output_key "${step.output_key}" is used by another step`);
      } else {
        outputKeys.add(step.output_key);
      }
    }
    switch (step.type) {
      case 'ACTION':
        if (typeof step.handler !== 'string' || !FUNCTION_NAME.test(step.handler)) at('handler must be a function name (snake_case)');
        if (step.arguments !== undefined && !isObject(step.arguments)) at('arguments must be an object');
        for (const problem of validateTemplates(step.arguments ?? {})) at(`arguments: ${problem}`);
        successor();
        break;
      case 'CONDITION': {
        const condition = step.condition;
        if (!isObject(condition)) {
          at('condition must be an object {field, operator, value}');
          break;
        }
        if (typeof condition.field !== 'string' || !DOT_PATH.test(condition.field)) at('condition.field must be a dot path');
        if (!CONDITION_OPERATORS.includes(condition.operator as never)) {
          at(`condition.operator must be one of ${CONDITION_OPERATORS.join(' ')}`);
        } else if (condition.operator === 'in' && !Array.isArray(condition.value)) {
          at('condition.value must be an array for "in"');
        } else if (condition.operator !== 'exists' && !('value' in condition)) {
          at(`condition.value is required for "${condition.operator}"`);
        }
        target('then_step');
        target('else_step');
        break;
      }
      case 'WAIT':
        if (step.handler !== WAIT_HANDLER) at(`handler must be "${WAIT_HANDLER}"`);
        if (step.event_type !== undefined && (typeof step.event_type !== 'string' || !isValidTypePattern(step.event_type))) {
          at('event_type must be an event type (letters, digits, dots) or a pattern ending in *');
        }
        if (step.event_filter !== undefined) {
          for (const problem of validateFilter(step.event_filter)) at(`event_filter: ${problem}`);
          if (step.event_type === undefined && isObject(step.event_filter) && Object.keys(step.event_filter).length) {
            at('event_filter needs an event_type (a pure timer receives no events)');
          }
        }
        if (step.timeout_seconds !== undefined && !isTimeout(step.timeout_seconds)) {
          at(`timeout_seconds must be an integer from 1 to ${MAX_WAIT_TIMEOUT_SECONDS}`);
        }
        successor();
        break;
      case 'APPROVAL':
        if (typeof step.title !== 'string' || step.title.trim() === '' || step.title.length > MAX_TITLE_LENGTH) {
          at(`title must be a non-empty string of up to ${MAX_TITLE_LENGTH} characters`);
        }
        if (step.description !== undefined && typeof step.description !== 'string') at('description must be a string');
        for (const problem of validateTemplates({ title: step.title, description: step.description, payload: step.payload })) at(problem);
        for (const problem of approversProblems(step.approvers)) at(problem);
        if (step.quorum !== undefined && !(typeof step.quorum === 'number' && Number.isInteger(step.quorum) && step.quorum >= 1 && step.quorum <= MAX_QUORUM)) {
          at(`quorum must be an integer from 1 to ${MAX_QUORUM}`);
        }
        if (step.timeout_seconds !== undefined && !isTimeout(step.timeout_seconds)) {
          at(`timeout_seconds must be an integer from 1 to ${MAX_WAIT_TIMEOUT_SECONDS}`);
        }
        successor();
        break;
    }
  }
  // Checked on a definition whose steps are otherwise sound (it follows their targets).
  if (errors.length === 0) errors.push(...branchFallThroughs(value.steps as Step[]));
  return errors.length ? { ok: false, errors } : { ok: true, definition: value as unknown as WorkflowDefinition };
}
