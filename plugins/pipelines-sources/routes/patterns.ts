// The pattern routes: the patterns (connectors) a
// source can be made from, with their configuration schemas.
import type { ServerRoute } from '@hapi/hapi';
import { member } from '../access.ts';
import type { PatternRegistry, RegisteredPattern } from '../patterns/registry.ts';
import * as s from '../schemas.ts';

const tags = ['api', 'patterns'];

const view = ({ pattern, builtIn, credentialFields, basePattern }: RegisteredPattern) => ({
  id: pattern.id, name: pattern.name, description: pattern.description, built_in: builtIn, base_pattern: basePattern ?? null,
  config_schema: pattern.configSchema, credential_fields: credentialFields,
});

export function patternRoutes(patterns: PatternRegistry): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/v1/patterns/discover',
      options: {
        auth: 'bearer', tags, description: 'The source patterns available: built-in ones and those plugins registered',
        plugins: { platform: member }, response: { schema: s.patternList },
      },
      handler: async () => {
        await patterns.refresh();
        return { items: patterns.list().map(view) };
      },
    },
    {
      method: 'GET', path: '/api/v1/patterns/{pattern_id}',
      options: {
        auth: 'bearer', tags, description: 'A pattern with its configuration JSON Schema (credential fields are write-only)',
        plugins: { platform: member }, validate: { params: s.patternParams }, response: { schema: s.pattern },
      },
      handler: async (request) => {
        await patterns.refresh();
        return view(patterns.get((request.params as { pattern_id: string }).pattern_id));
      },
    },
  ];
}
