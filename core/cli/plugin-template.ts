// The files of a new partner plugin package (`platform plugin init`): a
// minimal plugin (one table, one route, one event type) in the platform's
// plugin layout (plugin.ts, services.ts, cli.ts, services/, store/, routes/,
// sql/, test/), that builds with tsc
// into dist/ (sql/ copied beside the compiled entry), tests through
// agent-platform/sdk/testing, and is loaded by one manifest line.

import { readFileSync } from 'node:fs';
import path from 'node:path';

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

/** The TypeScript files, kept as text beside this module (they are the package's code, not the platform's): `{{name}}` is replaced. */
function fromTemplate(file: string, names: TemplateNames): string {
  const text = readFileSync(path.join(import.meta.dirname, 'plugin-template', file), 'utf8');
  return text.replace(/\{\{(packageName|pluginName|table)\}\}/g, (_match, key: 'packageName' | 'pluginName' | 'table') => names[key]);
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
    devDependencies: { 'agent-platform': `file:${platformPath}`, typescript: '7.0.2' },
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
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
// The compiler's command, as the typescript package declares it ("bin").
const typescriptPackage = createRequire(import.meta.url).resolve('typescript/package.json');
const tsc = path.join(path.dirname(typescriptPackage), JSON.parse(readFileSync(typescriptPackage, 'utf8')).bin.tsc);
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
if (existsSync(path.join(root, 'sql'))) cpSync(path.join(root, 'sql'), path.join(dist, 'sql'), { recursive: true });
`;

function migration({ pluginName, table }: TemplateNames): string {
  return `-- The ${pluginName} plugin's table: items of a tenant. Tenant-owned, so it has
-- tenant_id and forced row-level security on app.tenant_id
-- (platform_enable_tenant_rls, the platform's own migrations).
CREATE TABLE ${table} (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id bigint GENERATED ALWAYS AS IDENTITY,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Every key of a tenant table starts with tenant_id.
  PRIMARY KEY (tenant_id, id)
);
SELECT platform_enable_tenant_rls('${table}');
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
- \`npm test\` builds, then runs \`test/\` with \`node --test\` (tap works too)
  on the platform's embedded database: no database to set up, each test gets
  a fresh one, removed afterwards. With \`TEST_DATABASE_URL\` set (a throwaway
  PostgreSQL cluster, which the tests create databases on), they run on
  PostgreSQL instead.
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
    'plugin.ts': fromTemplate('plugin.ts.tmpl', names),
    'event-types.ts': fromTemplate('event-types.ts.tmpl', names),
    'services.ts': fromTemplate('services.ts.tmpl', names),
    'cli.ts': fromTemplate('cli.ts.tmpl', names),
    'services/items.ts': fromTemplate('services/items.ts.tmpl', names),
    'store/tables.ts': fromTemplate('store/tables.ts.tmpl', names),
    'store/items.ts': fromTemplate('store/items.ts.tmpl', names),
    'routes/items.ts': fromTemplate('routes/items.ts.tmpl', names),
    'sql/0001_init.sql': migration(names),
    'scripts/build.js': BUILD_SCRIPT,
    [`test/${names.pluginName}.test.ts`]: fromTemplate('test.ts.tmpl', names),
    'README.md': readme(names),
    '.gitignore': 'node_modules/\ndist/\n*.tgz\n',
  };
}
