// The lakehouse's readiness check (/readyz): its schemas exist and the tenant
// role may use them; a lake that cannot be reached or written makes the
// platform unready (503).
import { sql, type CoreServices } from 'agent-platform/sdk';
import { NAMESPACES } from '../datasets/naming.ts';

export function lakehouseCheck(core: CoreServices) {
  return async (): Promise<string | undefined> => {
    const { rows } = await sql<{ nspname: string; usable: boolean }>`
      SELECT nspname, has_schema_privilege('platform_tenant', oid, 'USAGE') AS usable
      FROM pg_namespace WHERE nspname IN (${sql.join([...NAMESPACES])})`.execute(core.db);
    const missing = NAMESPACES.filter((name) => !rows.some((row) => row.nspname === name && row.usable));
    return missing.length ? `lake schema(s) missing or not usable: ${missing.join(', ')}` : undefined;
  };
}
