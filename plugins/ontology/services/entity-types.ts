// Entity types: immutable versions, their checks, deprecation.
// A change of properties, keys, relationships or carrier types is a new
// version; name and description changes too (every version is a whole,
// frozen definition). Backing datasets that do not pin a version follow the
// current one, so a new version changes their effective spec.
import { badRequest, conflict, createAjv, type KeysetPage, notFound, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import { ENTITY_TYPE_CHANGED } from '../event-types.ts';
import { actorOf, type OntologyCaller } from '../authorization/policy.ts';
import { entityTypesStore, type EntityTypeDefinition, type EntityTypeRow, type EntityTypeVersionRow } from '../store/entity-types.ts';

const ajv = createAjv();
export const PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export type EntityTypeInput = Partial<EntityTypeDefinition> & { code?: string };

export function typeView(row: EntityTypeRow) {
  return { ...versionView(row), current_version: row.current_version, deprecated: row.deprecated_at !== null, deprecated_at: row.deprecated_at, updated_at: row.updated_at };
}

export function versionView(row: EntityTypeVersionRow) {
  return {
    code: row.code, version: row.version, name: row.name, description: row.description, properties: row.properties, keys: row.keys,
    relationships: row.relationships, carrier_types: row.carrier_types, created_by: row.created_by, created_at: row.created_at,
  };
}

function propertyNames(definition: EntityTypeDefinition): string[] {
  return Object.keys((definition.properties.properties ?? {}) as Record<string, unknown>);
}

/** Checks a definition as create or a new version would (the apply planner); 400 ENTITY_TYPE_INVALID. */
export function checkDefinition(code: string, definition: EntityTypeDefinition, knownTypes: Set<string>): void {
  check(code, definition, knownTypes);
}

/** What makes a definition unusable, with the field it is about: 400 ENTITY_TYPE_INVALID. */
function check(code: string, definition: EntityTypeDefinition, knownTypes: Set<string>): void {
  const fail = (message: string) => { throw badRequest(`Entity type ${code}: ${message}`, 'ENTITY_TYPE_INVALID'); };
  if (definition.properties.type !== 'object' || typeof definition.properties.properties !== 'object') fail('properties must be a JSON Schema {type: "object", properties: {...}}');
  try {
    ajv.compile(definition.properties);
  } catch (err) {
    fail(`properties is not a valid JSON Schema: ${(err as Error).message}`);
  }
  const names = new Set(propertyNames(definition));
  for (const name of names) if (!PROPERTY_NAME.test(name)) fail(`property name "${name}" must match ${PROPERTY_NAME.source}`);
  for (const key of definition.keys) if (!names.has(key)) fail(`key "${key}" is not a property`);
  for (const relationship of definition.relationships) {
    if (!names.has(relationship.via)) fail(`relationship "${relationship.name}": via "${relationship.via}" is not a property`);
    if (relationship.target_type !== code && !knownTypes.has(relationship.target_type)) fail(`relationship "${relationship.name}": unknown target type "${relationship.target_type}"`);
  }
  if (new Set(definition.relationships.map((r) => r.name)).size !== definition.relationships.length) fail('relationship names must be unique');
  for (const carrier of definition.carrier_types) if (carrier !== code && !knownTypes.has(carrier)) fail(`unknown carrier type "${carrier}"`);
}

export function createEntityTypeService(core: CoreServices) {
  async function knownTypes(trx: TenantTransaction, definition: EntityTypeDefinition): Promise<Set<string>> {
    const named = [...definition.relationships.map((r) => r.target_type), ...definition.carrier_types];
    const known = new Set<string>();
    for (const code of new Set(named)) if (await entityTypesStore.get(trx, code)) known.add(code);
    return known;
  }

  const inTenant = <T>(tenantId: string, given: TenantTransaction | undefined, run: (trx: TenantTransaction) => Promise<T>) =>
    given ? run(given) : core.withTenant(tenantId, run);

  async function addVersion(caller: OntologyCaller, code: string, build: (current: EntityTypeRow) => EntityTypeDefinition, given?: TenantTransaction) {
    return inTenant(caller.tenantId, given, async (trx) => {
      if (!(await entityTypesStore.lock(trx, code))) throw notFound(`Entity type not found: ${code}`, 'ENTITY_TYPE_NOT_FOUND');
      const current = (await entityTypesStore.get(trx, code))!;
      const definition = build(current);
      check(code, definition, await knownTypes(trx, definition));
      const version = current.current_version + 1;
      await entityTypesStore.insertVersion(trx, caller.tenantId, code, version, definition, actorOf(caller.principal).sub);
      await core.events.emit(trx, caller.tenantId, { type: ENTITY_TYPE_CHANGED, source: '/ontology', data: { code, version, change: 'versioned' } });
      return typeView((await entityTypesStore.get(trx, code))!);
    });
  }

  return {
    async list(tenantId: string, page: { after?: string; limit: number }) {
      const rows = await core.withTenant(tenantId, (trx) => entityTypesStore.list(trx, page.after, page.limit + 1));
      return { items: rows.slice(0, page.limit).map(typeView), next_cursor: rows.length > page.limit ? rows[page.limit - 1]!.code : null };
    },

    /** A keyset page by code (GraphQL). */
    page: async (tenantId: string, page: KeysetPage<string>) => (await core.withTenant(tenantId, (trx) => entityTypesStore.page(trx, page))).map(typeView),

    count: (tenantId: string) => core.withTenant(tenantId, (trx) => entityTypesStore.count(trx)),

    async get(tenantId: string, code: string) {
      const row = await core.withTenant(tenantId, (trx) => entityTypesStore.get(trx, code));
      if (!row) throw notFound(`Entity type not found: ${code}`, 'ENTITY_TYPE_NOT_FOUND');
      return typeView(row);
    },

    async version(tenantId: string, code: string, version?: number): Promise<EntityTypeVersionRow | undefined> {
      return core.withTenant(tenantId, async (trx) => {
        if (version !== undefined) return entityTypesStore.version(trx, code, version);
        return entityTypesStore.get(trx, code);
      });
    },

    async versions(tenantId: string, code: string) {
      const rows = await core.withTenant(tenantId, (trx) => entityTypesStore.versions(trx, code));
      if (!rows.length) throw notFound(`Entity type not found: ${code}`, 'ENTITY_TYPE_NOT_FOUND');
      return { items: rows.map(versionView) };
    },

    async create(caller: OntologyCaller, input: EntityTypeDefinition & { code: string }, given?: TenantTransaction) {
      const { code, ...definition } = input;
      return inTenant(caller.tenantId, given, async (trx) => {
        check(code, definition, await knownTypes(trx, definition));
        if (!(await entityTypesStore.insertType(trx, caller.tenantId, code, actorOf(caller.principal).sub))) {
          throw conflict(`Entity type ${code} already exists: add a version instead`, 'ENTITY_TYPE_EXISTS');
        }
        await entityTypesStore.insertVersion(trx, caller.tenantId, code, 1, definition, actorOf(caller.principal).sub);
        await core.events.emit(trx, caller.tenantId, { type: ENTITY_TYPE_CHANGED, source: '/ontology', data: { code, version: 1, change: 'created' } });
        return typeView((await entityTypesStore.get(trx, code))!);
      });
    },

    /** POST /{code}/versions: a whole new definition. */
    addVersion: (caller: OntologyCaller, code: string, definition: EntityTypeDefinition, given?: TenantTransaction) => addVersion(caller, code, () => definition, given),

    /** PATCH: the given fields over the current definition, as a new version (none when nothing changes). */
    async patch(caller: OntologyCaller, code: string, patch: Partial<EntityTypeDefinition>) {
      const current = await core.withTenant(caller.tenantId, (trx) => entityTypesStore.get(trx, code));
      if (!current) throw notFound(`Entity type not found: ${code}`, 'ENTITY_TYPE_NOT_FOUND');
      const merged = { ...definitionOf(current), ...patch };
      if (JSON.stringify(merged) === JSON.stringify(definitionOf(current))) return typeView(current);
      return addVersion(caller, code, (locked) => ({ ...definitionOf(locked), ...patch }));
    },

    /** Refused while backing datasets use it, unless allow_deprecate (then it is kept, deprecated). */
    async remove(caller: OntologyCaller, code: string, allowDeprecate: boolean): Promise<{ deprecated: boolean }> {
      return core.withTenant(caller.tenantId, async (trx) => {
        if (!(await entityTypesStore.lock(trx, code))) throw notFound(`Entity type not found: ${code}`, 'ENTITY_TYPE_NOT_FOUND');
        const users = await entityTypesStore.usedBy(trx, code);
        const current = await entityTypesStore.get(trx, code);
        if (users > 0 && !allowDeprecate) {
          throw conflict(`Entity type ${code} is used by ${users} backing dataset(s): delete them, or pass allow_deprecate=true to deprecate it`, 'ENTITY_TYPE_IN_USE');
        }
        if (users > 0) await entityTypesStore.deprecate(trx, code);
        else await entityTypesStore.remove(trx, code);
        const change = users > 0 ? 'deprecated' : 'deleted';
        await core.events.emit(trx, caller.tenantId, { type: ENTITY_TYPE_CHANGED, source: '/ontology', data: { code, version: current?.current_version ?? null, change } });
        return { deprecated: users > 0 };
      });
    },
  };
}

export function definitionOf(row: EntityTypeVersionRow): EntityTypeDefinition {
  return { name: row.name, description: row.description, properties: row.properties, keys: row.keys, relationships: row.relationships, carrier_types: row.carrier_types };
}

export type EntityTypeService = ReturnType<typeof createEntityTypeService>;
