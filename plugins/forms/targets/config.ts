// A use case's target_config checked against its target's config schema
// (its config items): unknown keys, missing required items, wrong types
// and values outside `options` are refused, each named; defaults fill the rest.
import { badRequest } from 'agent-platform/sdk';
import type { ConfigItem, TargetConfig } from '../api.ts';

function problemOf(item: ConfigItem, value: unknown): string | undefined {
  const ids = item.options?.map((option) => String(option.id));
  switch (item.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'text':
      return typeof value === 'string' ? undefined : 'must be text';
    case 'choice':
      return ids?.includes(String(value)) && (typeof value === 'string' || typeof value === 'number')
        ? undefined : `must be one of ${ids?.join(', ') || '(no options)'}`;
    case 'fk':
      if (!(typeof value === 'string' && value !== '') && !(Number.isInteger(value))) return 'must be a record id (text or integer)';
      return !ids || ids.includes(String(value)) ? undefined : `must be one of ${ids.join(', ') || '(no records)'}`;
    default:
      return `has an unknown type ${JSON.stringify(item.type)} in the target's config schema`;
  }
}

/** The config with defaults applied, or a 400 TARGET_CONFIG_INVALID naming every bad key. */
export function checkTargetConfig(items: ConfigItem[], config: TargetConfig): TargetConfig {
  const problems: string[] = [];
  const known = new Map(items.map((item) => [item.key, item]));
  for (const key of Object.keys(config)) if (!known.has(key)) problems.push(`${key}: not a setting of this target`);
  const checked: TargetConfig = {};
  for (const item of items) {
    const value = config[item.key] ?? item.default;
    if (value === undefined || value === null) {
      if (item.required) problems.push(`${item.key}: required`);
      continue;
    }
    const problem = problemOf(item, value);
    if (problem) problems.push(`${item.key}: ${problem}`);
    else checked[item.key] = value;
  }
  if (problems.length) {
    const error = badRequest(`target_config is invalid: ${problems.join('; ')}`, 'TARGET_CONFIG_INVALID');
    (error.output.payload as Record<string, unknown>).fields = problems.map((problem) => `target_config.${problem.split(':')[0]}`);
    throw error;
  }
  return checked;
}
