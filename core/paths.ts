import path from 'node:path';

export const ROOT_DIR = path.resolve(import.meta.dirname, '..');
export const SQL_DIR = path.join(ROOT_DIR, 'sql');
/** The repository's own plugins: a plugin whose entry module sits here is built in. */
export const PLUGINS_DIR = path.join(ROOT_DIR, 'plugins');
/** Core's own migrations: recorded under the owner `core`, applied before any plugin's. */
export const CORE_MIGRATIONS = { plugin: 'core', dir: SQL_DIR };
