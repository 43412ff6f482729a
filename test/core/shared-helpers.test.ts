// The helpers written once for core and every plugin: the UUID check
// (core/uuid.ts: isUuid, UUID_PATTERN, isUuidText) and GraphQL's BAD_USER_INPUT
// error (core/graphql/errors.ts: badInput). What each accepts, and, on the
// source, that no module writes its own.
import t from 'tap';
import { glob, readFile } from 'node:fs/promises';
import path from 'node:path';
import { GraphQLError } from 'graphql';
import { badInput, isUuid, isUuidText, UUID_PATTERN } from 'agent-platform/sdk';
import { ROOT_DIR } from '../../core/paths.ts';

t.test('isUuid: 8-4-4-4-12 hex digits, either case, any version; nothing else', async (t) => {
  for (const id of [crypto.randomUUID(), '00000000-0000-0000-0000-000000000000', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 'a0eebc99-9c0b-0ef8-0b6d-6bb9bd380a11']) {
    t.ok(isUuid(id), id);
    t.ok(UUID_PATTERN.test(id), id);
  }
  for (const value of ['', 'a0eebc999c0b4ef8bb6d6bb9bd380a11', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1',
    'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11 ', 'g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'a0eebc99:9c0b:4ef8:bb6d:6bb9bd380a11', '-'.repeat(36), 42, null, undefined]) {
    t.notOk(isUuid(value), String(value));
  }
});

t.test('isUuidText: a UUID with any of its hyphens left out, as PostgreSQL reads it', async (t) => {
  for (const id of ['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'A0EEBC999C0B4EF8BB6D6BB9BD380A11', 'a0eebc99-9c0b4ef8-bb6d6bb9bd380a11']) t.ok(isUuidText(id), id);
  for (const value of ['a0eebc9-99c0b-4ef8-bb6d-6bb9bd380a11', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}', 'a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11', 7]) {
    t.notOk(isUuidText(value), String(value));
  }
});

t.test('badInput: a GraphQLError with code BAD_USER_INPUT and the message given', async (t) => {
  const error = badInput('Malformed cursor');
  t.ok(error instanceof GraphQLError);
  t.equal(error.message, 'Malformed cursor');
  t.same(error.extensions, { code: 'BAD_USER_INPUT' });
});

// A character class of hex digits repeated 8 times (a UUID's first group), or
// one of hex digits and hyphens spanning a whole UUID.
const UUID_REGEX = /\[(?:0-9a-f|a-f0-9|0-9A-F|0-9a-fA-F)[^\]]*\]\{(?:8|32|36)\}/;
const BAD_USER_INPUT_ERROR = /new GraphQLError\([^;]*BAD_USER_INPUT/;
const UUID_MODULE = path.join('core', 'uuid.ts');
const ERRORS_MODULE = path.join('core', 'graphql', 'errors.ts');

t.test('no module of core or the plugins writes its own UUID pattern or BAD_USER_INPUT error: isUuid, UUID_PATTERN, isUuidText and badInput come from agent-platform/sdk', async (t) => {
  const problems: string[] = [];
  let files = 0;
  for (const dir of ['core', 'plugins']) {
    for await (const file of glob('**/*.ts', { cwd: path.join(ROOT_DIR, dir) })) {
      const relative = path.join(dir, file);
      if (file.includes(`${path.sep}node_modules${path.sep}`)) continue;
      // A plugin's tests assert on what ids look like; the rule is for the code.
      if (dir === 'plugins' && file.split(path.sep)[1] === 'test') continue;
      files++;
      const source = await readFile(path.join(ROOT_DIR, relative), 'utf8');
      source.split('\n').forEach((line, index) => {
        if (relative !== UUID_MODULE && UUID_REGEX.test(line)) problems.push(`${relative}:${index + 1}: a UUID pattern (use isUuid or UUID_PATTERN)`);
        if (relative !== ERRORS_MODULE && BAD_USER_INPUT_ERROR.test(line)) problems.push(`${relative}:${index + 1}: a BAD_USER_INPUT GraphQLError (use badInput)`);
      });
    }
  }
  t.ok(files > 100, `${files} files read`);
  t.same(problems, []);
});
