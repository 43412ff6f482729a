// The files of a new partner plugin package (`platform plugin init`): a
// minimal plugin (one table, one route, one event type) that builds with tsc
// into dist/ (sql/ copied beside the compiled entry), tests through
// agent-platform/sdk/testing, and is loaded by one manifest line.

export interface TemplateNames {
  /** The npm package name: `@acme/platform-plugin-notes`. */
  packageName: string;
  /** The hapi plugin's name, also its routes' and event types' prefix: `notes`. */
  pluginName: string;
  /** Its table: `notes_items`. */
  table: string;
  /** The platform checkout, relative to the package folder (its development link). */
  platformPath: string;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function packageJson({ packageName, platformPath }: TemplateNames): string {
  return json({
    name: packageName,
    version: '0.1.0',
    description: 'A plugin of the agent platform',
    type: 'module',
    exports: { '.': './dist/plugin.js' },
    files: ['dist'],
    scripts: {
      build: 'node scripts/build.js',
      test: 'npm run build && node --test test/*.test.ts',
    },
    peerDependencies: { 'agent-platform': '*' },
    peerDependenciesMeta: { 'agent-platform': { optional: true } },
    devDependencies: { 'agent-platform': `file:${platformPath}`, typescript: '5.9.3' },
  });
}

const TSCONFIG = json({
  compilerOptions: {
    target: 'es2024',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    verbatimModuleSyntax: true,
    erasableSyntaxOnly: true,
    rewriteRelativeImportExtensions: true,
    skipLibCheck: true,
    rootDir: '.',
    outDir: 'dist',
  },
  include: ['**/*.ts'],
  exclude: ['dist', 'test', 'node_modules'],
});

const BUILD_SCRIPT = `// Compiles the TypeScript into dist/ with tsc and copies sql/ to dist/sql/:
// Node loads no TypeScript from node_modules, and the platform reads a
// plugin's migrations from the sql/ folder next to its entry module.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
if (existsSync(path.join(root, 'sql'))) cpSync(path.join(root, 'sql'), path.join(dist, 'sql'), { recursive: true });
`;

function pluginTs({ packageName, pluginName, table }: TemplateNames): string {
  return `// ${packageName}: a plugin of the agent platform. It reaches the platform
// only through agent-platform/sdk; its table comes from sql/ next to its entry
// module (dist/sql/ once built).
import { coreOf, definePlugin, tenantOf, type ColumnType, type EventTypeDefinition, type Generated } from 'agent-platform/sdk';

interface ItemsTable {
  id: Generated<number>;
  tenant_id: string;
  body: string;
  created_at: ColumnType<Date, never, never>;
}

declare module 'agent-platform/sdk' {
  interface Database {
    ${table}: ItemsTable;
  }
}

export const ITEM_CREATED = '${pluginName}.item.created';

const EVENT_TYPES: EventTypeDefinition[] = [
  {
    type: ITEM_CREATED,
    description: 'An item is added to the tenant\\'s ${pluginName} items; data has item_id',
    schema: { type: 'object', required: ['item_id'], properties: { item_id: { type: 'integer' } } },
  },
];

export const plugin = definePlugin({
  name: '${pluginName}',
  version: '0.1.0',
  dependencies: ['tenancy', 'events'],
  register(server) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    server.route({
      method: 'GET', path: '/api/${pluginName}/items',
      options: { auth: 'bearer', tags: ['api', '${pluginName}'], description: 'List the tenant\\'s items', plugins: { platform: { tenant: 'required' } } },
      handler: async (request) => ({
        items: await core.withTenant(tenantOf(request), (trx) => trx.selectFrom('${table}').select(['id', 'body', 'created_at']).orderBy('id').execute()),
      }),
    });
  },
});
`;
}

function migration({ pluginName, table }: TemplateNames): string {
  return `-- The ${pluginName} plugin's table: items of a tenant. Tenant-owned, so it has
-- tenant_id and forced row-level security on app.tenant_id
-- (platform_enable_tenant_rls, the platform's own migrations).
CREATE TABLE ${table} (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ${table}_tenant ON ${table} (tenant_id, id);
SELECT platform_enable_tenant_rls('${table}');
`;
}

function testTs({ pluginName, table }: TemplateNames): string {
  return `// The plugin on the real platform and a throwaway database
// (agent-platform/sdk/testing; TEST_DATABASE_URL names the PostgreSQL cluster),
// loaded from this folder's package.json, that is from dist/: build first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startTestPlatform, tenantWithAdmin } from 'agent-platform/sdk/testing';

const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');

test('its migration runs and its route answers', async (t) => {
  const tp = await startTestPlatform({ teardown: (fn) => t.after(fn) }, {
    manifest: { plugins: [{ plugin: './plugins/tenancy' }, { plugin: './plugins/workflows' }, { plugin: './plugins/events' }, { plugin: PACKAGE_DIR }] },
  });
  const acme = await tenantWithAdmin(tp, 'acme');
  const listed = await tp.request({ url: '/api/${pluginName}/items', token: acme.token });
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.items, []);
  const table = await tp.platform.core.pool.query(\`SELECT relforcerowsecurity FROM pg_class WHERE relname = '${table}'\`);
  assert.deepEqual(table.rows, [{ relforcerowsecurity: true }]);
});
`;
}

function readme({ packageName, pluginName }: TemplateNames): string {
  return `# ${packageName}

A plugin of the agent platform: the \`${pluginName}\` plugin (route
\`GET /api/${pluginName}/items\`, event type \`${pluginName}.item.created\`).

- \`npm install\` links the platform checkout for types and tests
  (\`agent-platform\`, a development dependency; an optional peer dependency
  for deployments, which never fetch it).
- \`npm run build\` compiles into \`dist/\` and copies \`sql/\` to \`dist/sql/\`.
- \`npm test\` builds, then runs \`test/\` against a throwaway PostgreSQL
  named by \`TEST_DATABASE_URL\`.
- \`npm pack\` makes the tarball a deployment installs
  (\`npm install ./${packageName.replace('@', '').replace('/', '-')}-0.1.0.tgz\` in the platform's folder).

The deployment's manifest, a file in the platform's folder (\`deployment.yaml\`,
run with \`PLATFORM_MANIFEST=deployment.yaml\`), extends the default one and
names the package:

\`\`\`yaml
extends: manifests/default.yaml
plugins:
  - plugin: "${packageName}"
\`\`\`
`;
}

/** Each file of the package, by its path in the package folder. */
export function templateFiles(names: TemplateNames): Record<string, string> {
  return {
    'package.json': packageJson(names),
    'tsconfig.json': TSCONFIG,
    'plugin.ts': pluginTs(names),
    'sql/0001_init.sql': migration(names),
    'scripts/build.js': BUILD_SCRIPT,
    [`test/${names.pluginName}.test.ts`]: testTs(names),
    'README.md': readme(names),
    '.gitignore': 'node_modules/\ndist/\n*.tgz\n',
  };
}
