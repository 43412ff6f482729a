// Reads of entities for GraphQL: a type's entities filtered on properties
// and on related entities' properties, and relationship traversal. A `where`
// is an object of property values (JSON containment) in which a key naming a
// relationship of the type holds a `where` on the related type (one level).
import { badRequest, type CoreServices, type KeysetPage } from 'agent-platform/sdk';
import { entitiesStore, type EntityFilter, type EntityRow } from '../store/entities.ts';
import { entityTypesStore, type EntityTypeVersionRow, type Relationship } from '../store/entity-types.ts';

type Trx = Parameters<typeof entityTypesStore.get>[0];

async function typeOf(trx: Trx, code: string): Promise<EntityTypeVersionRow> {
  const type = await entityTypesStore.get(trx, code);
  if (!type) throw badRequest(`Unknown entity type ${code}`, 'ENTITY_TYPE_NOT_FOUND');
  return type;
}

/** The single key of a relationship's target (relationships point at single-key types). */
async function targetKeyOf(trx: Trx, relationship: Relationship): Promise<string> {
  const target = await typeOf(trx, relationship.target_type);
  if (target.keys.length !== 1) throw badRequest(`Relationship ${relationship.name}: ${target.code} has a composite key; traversal needs a single-key target`, 'RELATIONSHIP_UNSUPPORTED');
  return target.keys[0]!;
}

export function createEntityService(core: CoreServices) {
  async function filterOf(trx: Trx, type: EntityTypeVersionRow, where: Record<string, unknown> | undefined): Promise<EntityFilter> {
    const filter: EntityFilter = { related: [] };
    const contains: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(where ?? {})) {
      const relationship = type.relationships.find((r) => r.name === name);
      if (!relationship) {
        contains[name] = value;
        continue;
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`where.${name}: a relationship takes an object of the related type's property values`, 'WHERE_INVALID');
      filter.related.push({
        via: relationship.via, many: relationship.cardinality === 'many', targetType: relationship.target_type,
        targetKey: await targetKeyOf(trx, relationship), contains: value as Record<string, unknown>,
      });
    }
    if (Object.keys(contains).length) filter.contains = contains;
    return filter;
  }

  /** The target type, its key and the values an entity's relationship points at (none: nothing to read). */
  async function traversal(trx: Trx, entity: EntityRow, name: string) {
    const type = await typeOf(trx, entity.entity_type);
    const relationship = type.relationships.find((r) => r.name === name);
    if (!relationship) throw badRequest(`${type.code} has no relationship ${name}`, 'RELATIONSHIP_NOT_FOUND');
    const value = entity.properties[relationship.via];
    const values = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
    return { targetType: relationship.target_type, targetKey: values.length ? await targetKeyOf(trx, relationship) : '', values };
  }

  return {
    /** A keyset page of a type's entities matching `where`, in key order. */
    list: (tenantId: string, code: string, where: Record<string, unknown> | undefined, page: KeysetPage<string>) =>
      core.withTenant(tenantId, async (trx) => entitiesStore.list(trx, code, await filterOf(trx, await typeOf(trx, code), where), page)),

    /** How many of a type's entities match `where`. */
    count: (tenantId: string, code: string, where: Record<string, unknown> | undefined) =>
      core.withTenant(tenantId, async (trx) => entitiesStore.countMatching(trx, code, await filterOf(trx, await typeOf(trx, code), where))),

    /** A keyset page of the entities an entity's relationship points at, in key order. */
    related: (tenantId: string, entity: EntityRow, name: string, page: KeysetPage<string>) => core.withTenant(tenantId, async (trx) => {
      const { targetType, targetKey, values } = await traversal(trx, entity, name);
      return values.length ? entitiesStore.byProperty(trx, targetType, targetKey, values, page) : [];
    }),

    /** How many entities an entity's relationship points at. */
    relatedCount: (tenantId: string, entity: EntityRow, name: string) => core.withTenant(tenantId, async (trx) => {
      const { targetType, targetKey, values } = await traversal(trx, entity, name);
      return values.length ? entitiesStore.countByProperty(trx, targetType, targetKey, values) : 0;
    }),
  };
}

export type EntityService = ReturnType<typeof createEntityService>;
