import path from 'node:path';

export const ROOT_DIR = path.resolve(import.meta.dirname, '..');
export const SQL_DIR = path.join(ROOT_DIR, 'sql');
