// Every plugin of the repository, and the partner example plugins/README.md is
// made of, has the one layout docs/decisions/core-plugin-layout.md describes
// (and `platform plugin init` scaffolds): a fixed set of top-level
// files, one folder per kind of module (routes/, services/, store/, tasks/,
// sql/, test/), domain folders for the rest, and names that say where a
// module belongs only in the folder of that kind.
import t from 'tap';
import { glob, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT_DIR } from '../../core/paths.ts';

const PLUGINS = path.join(ROOT_DIR, 'plugins');

/** The only files a plugin may have beside its folders. */
const TOP_LEVEL_FILES = new Set([
  'plugin.ts', // registration only
  'api.ts', // the public types other plugins and partners import
  'services.ts', // the one factory of the services, shared by the server and the CLI
  'options.ts', // the options schema and the secrets it reads
  'event-types.ts', // the event types it registers
  'access.ts', // who may do what, shared by routes, GraphQL and functions
  'errors.ts', // its error codes
  'schemas.ts', // the joi schemas of its routes
  'graphql.ts', // its fields on the shared schema
  'functions.ts', // its platform functions
  'cli.ts', // its CLI commands
  'README.md',
  'package.json',
]);

/** A module whose name says it is a service, a store or routes belongs in the folder of that kind. */
const KIND_IN_NAME = /(^|[-.])(service|services|store|routes)([-.]|$)/;
const KIND_FOLDER: Record<string, string> = { service: 'services', services: 'services', store: 'store', routes: 'routes' };

const ROUTE_DECLARATION = /\bmethod:\s*'(GET|POST|PUT|PATCH|DELETE|\*)'[\s\S]{0,200}?\bpath:\s*'\//;
const SQL = /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql(<[^>]*>)?`/;

/** Each plugin's folder, by the name the problems give it. */
async function pluginFolders(): Promise<Map<string, string>> {
  const entries = await readdir(PLUGINS, { withFileTypes: true });
  const folders = new Map(entries.filter((entry) => entry.isDirectory()).map((entry) => [entry.name, path.join(PLUGINS, entry.name)]));
  folders.set('partner-plugin', path.join(ROOT_DIR, 'test', 'fixtures', 'partner-plugin'));
  return folders;
}

t.test('every plugin has plugin.ts, README.md and only the top-level files of the layout', async (t) => {
  const problems: string[] = [];
  for (const [name, folder] of await pluginFolders()) {
    const entries = await readdir(folder, { withFileTypes: true });
    const files = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
    for (const required of ['plugin.ts', 'README.md']) if (!files.includes(required)) problems.push(`${name}: no ${required}`);
    for (const file of files) if (!TOP_LEVEL_FILES.has(file)) problems.push(`${name}/${file}: not a top-level file of the layout (move it into a folder)`);
  }
  t.same(problems, []);
});

t.test('plugin.ts registers through definePlugin', async (t) => {
  const problems: string[] = [];
  for (const [name, folder] of await pluginFolders()) {
    const source = await readFile(path.join(folder, 'plugin.ts'), 'utf8');
    if (!/\bdefinePlugin\b/.test(source)) problems.push(`${name}/plugin.ts: does not use definePlugin`);
  }
  t.same(problems, []);
});

t.test('services, stores and routes live in services/, store/ and routes/; SQL only in store/; routes only in routes/', async (t) => {
  const problems: string[] = [];
  let files = 0;
  for (const [name, folder] of await pluginFolders()) {
    for await (const inFolder of glob('**/*.ts', { cwd: folder })) {
      const inside = inFolder.split(path.sep);
      if (inside[0] === 'test' || inside[0] === 'sql' || inside[0] === 'node_modules') continue;
      files++;
      const file = `${name}/${inside.join('/')}`;
      const base = path.basename(inFolder, '.ts');
      const folders = inside.slice(0, -1);
      if (inside.length > 1 || base !== 'services') {
        const kind = KIND_IN_NAME.exec(base)?.[2];
        if (kind && !folders.includes(KIND_FOLDER[kind])) problems.push(`${file}: a ${kind} module outside ${KIND_FOLDER[kind]}/`);
      }
      const source = await readFile(path.join(folder, inFolder), 'utf8');
      if (SQL.test(source) && !folders.includes('store')) problems.push(`${file}: SQL outside store/`);
      if (ROUTE_DECLARATION.test(source) && !folders.includes('routes')) problems.push(`${file}: declares routes outside routes/`);
    }
  }
  t.ok(files > 300, `${files} files read`);
  t.same(problems, []);
});

t.test("a plugin's tests live beside it, in plugins/<name>/test/", async (t) => {
  const stray: string[] = [];
  for await (const file of glob('test/plugins/**/*.test.ts', { cwd: ROOT_DIR })) stray.push(file);
  t.same(stray, [], 'no plugin test under test/plugins/');
});
