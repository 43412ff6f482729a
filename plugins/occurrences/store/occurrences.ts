// SQL of occurrences, their history and linked duplicates; always in a tenant transaction.
import { type KeysetPage, sql, type TenantTransaction } from 'agent-platform/sdk';
import { boundingBox } from '../domain/geo.ts';
import type { OccurrenceSource } from './tables.ts';
import './tables.ts';

export interface OccurrenceValues {
  type_id: number;
  title: string;
  description: string;
  latitude: number;
  longitude: number;
  address: string | null;
  reporter_name: string | null;
  reporter_email: string | null;
  reporter_phone: string | null;
  dynamic_fields: Record<string, unknown>;
  attachments: Record<string, unknown>[];
  state: string;
  source: OccurrenceSource;
  submitted_by: string | null;
  created_at: Date;
}

const COLUMNS = [
  'id', 'reference', 'type_id', 'title', 'description', 'latitude', 'longitude', 'address', 'reporter_name', 'reporter_email',
  'reporter_phone', 'dynamic_fields', 'attachments', 'state', 'duplicate_of', 'source', 'submitted_by', 'support_count', 'created_at', 'updated_at',
] as const;

export interface ListFilter {
  state?: string;
  typeId?: number;
  reference?: string;
  text?: string;
  createdFrom?: Date;
  createdTo?: Date;
  box?: { minLat: number; maxLat: number; minLon: number; maxLon: number };
  /** Within `radius` metres of a point (haversine, after the box). */
  near?: { lat: number; lon: number; radius: number };
  /** In one of these states / in none of them (Open311 open and closed). */
  inStates?: string[];
  notInStates?: string[];
  references?: string[];
}

export type SortKey = 'created_at' | '-created_at' | 'reference' | '-reference' | 'state' | '-state' | 'title' | '-title';

function filtered(trx: TenantTransaction, filter: ListFilter) {
  let query = trx.selectFrom('occurrences');
  if (filter.state) query = query.where('state', '=', filter.state);
  if (filter.typeId !== undefined) query = query.where('type_id', '=', filter.typeId);
  if (filter.reference) query = query.where('reference', '=', filter.reference);
  if (filter.text) query = query.where(sql<boolean>`(search_text ILIKE ${`%${filter.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} OR search_vector @@ plainto_tsquery('simple', ${filter.text}))`);
  if (filter.inStates) query = filter.inStates.length ? query.where('state', 'in', filter.inStates) : query.where(sql<boolean>`false`);
  if (filter.notInStates?.length) query = query.where('state', 'not in', filter.notInStates);
  if (filter.references) query = filter.references.length ? query.where('reference', 'in', filter.references) : query.where(sql<boolean>`false`);
  if (filter.createdFrom) query = query.where('created_at', '>=', filter.createdFrom);
  if (filter.createdTo) query = query.where('created_at', '<', filter.createdTo);
  if (filter.box) {
    query = query.where('latitude', '>=', filter.box.minLat).where('latitude', '<=', filter.box.maxLat)
      .where('longitude', '>=', filter.box.minLon).where('longitude', '<=', filter.box.maxLon);
  }
  if (filter.near) {
    const { lat, lon, radius } = filter.near;
    const box = boundingBox(lat, lon, radius);
    query = query.where('latitude', '>=', box.minLat).where('latitude', '<=', box.maxLat)
      .where('longitude', '>=', box.minLon).where('longitude', '<=', box.maxLon)
      .where(sql<boolean>`2 * 6371008.8 * asin(least(1, sqrt(power(sin(radians(latitude - ${lat}) / 2), 2)
        + cos(radians(${lat})) * cos(radians(latitude)) * power(sin(radians(longitude - ${lon}) / 2), 2)))) <= ${radius}`);
  }
  return query;
}

export const occurrencesStore = {
  /** Occurrences created since `since` (the console's usage counter). */
  async createdSince(trx: TenantTransaction, since: Date): Promise<number> {
    const row = await trx.selectFrom('occurrences').select((eb) => eb.fn.countAll<string>().as('n')).where('created_at', '>=', since).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The next reference of the tenant in a year (the counter row stays locked until commit: references never repeat). */
  async nextNumber(trx: TenantTransaction, tenantId: string, year: number): Promise<number> {
    const row = await trx.insertInto('occurrence_counters').values({ tenant_id: tenantId, year, last: 1 })
      .onConflict((oc) => oc.columns(['tenant_id', 'year']).doUpdateSet({ last: sql<number>`occurrence_counters.last + 1` }))
      .returning('last').executeTakeFirstOrThrow();
    return row.last;
  },

  insert: (trx: TenantTransaction, tenantId: string, reference: string, values: OccurrenceValues) =>
    trx.insertInto('occurrences').values({
      tenant_id: tenantId, reference, ...values,
      dynamic_fields: JSON.stringify(values.dynamic_fields), attachments: JSON.stringify(values.attachments), updated_at: values.created_at,
    }).returning(COLUMNS).executeTakeFirstOrThrow(),

  find: (trx: TenantTransaction, id: number) => trx.selectFrom('occurrences').select(COLUMNS).where('id', '=', id).executeTakeFirst(),

  findByReference: (trx: TenantTransaction, reference: string) =>
    trx.selectFrom('occurrences').select(COLUMNS).where('reference', '=', reference).executeTakeFirst(),

  /** The row, locked until the transaction ends (transitions). */
  lock: (trx: TenantTransaction, id: number) => trx.selectFrom('occurrences').select(COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst(),

  setAttachments: (trx: TenantTransaction, id: number, attachments: Record<string, unknown>[]) =>
    trx.updateTable('occurrences').set({ attachments: JSON.stringify(attachments) }).where('id', '=', id).returning(COLUMNS).executeTakeFirstOrThrow(),

  setState: (trx: TenantTransaction, id: number, state: string, duplicateOf: number | null, at: Date) =>
    trx.updateTable('occurrences').set({ state, duplicate_of: duplicateOf, updated_at: at }).where('id', '=', id).returning(COLUMNS).executeTakeFirstOrThrow(),

  addHistory: (trx: TenantTransaction, tenantId: string, entry: { occurrence_id: number; from_state: string | null; to_state: string; comment: string; actor: string | null; created_at: Date }) =>
    trx.insertInto('occurrence_history').values({ tenant_id: tenantId, ...entry }).execute(),

  history: (trx: TenantTransaction, id: number) => trx.selectFrom('occurrence_history')
    .select(['id', 'from_state', 'to_state', 'comment', 'actor', 'created_at']).where('occurrence_id', '=', id).orderBy('id').execute(),

  statesInUse: async (trx: TenantTransaction) =>
    (await trx.selectFrom('occurrences').select('state').distinct().execute()).map((row) => row.state),

  /** Occurrences marked duplicates of this one. */
  duplicatesOf: (trx: TenantTransaction, id: number) => trx.selectFrom('occurrences')
    .select(['id', 'reference', 'title', 'state', 'created_at']).where('duplicate_of', '=', id).orderBy('id').limit(500).execute(),

  async list(trx: TenantTransaction, filter: ListFilter, sort: SortKey, skip: number, limit: number) {
    const column = sort.replace('-', '') as 'created_at' | 'reference' | 'state' | 'title';
    const direction = sort.startsWith('-') ? 'desc' : 'asc';
    const items = await filtered(trx, filter).select(COLUMNS).orderBy(column, direction).orderBy('id', direction)
      .offset(skip).limit(limit).execute();
    const { total } = await filtered(trx, filter).select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
    return { items, total: Number(total) };
  },

  /**
   * A keyset page of the list newest first (by id): forward, the
   * occurrences before the cursor's id, newest first; backward, those after
   * it, oldest first (GraphQL).
   */
  page: (trx: TenantTransaction, filter: ListFilter, page: KeysetPage<number>) => {
    const forward = page.direction === 'forward';
    let query = filtered(trx, filter).select(COLUMNS);
    if (page.cursor !== undefined) query = query.where('id', forward ? '<' : '>', page.cursor);
    return query.orderBy('id', forward ? 'desc' : 'asc').limit(page.limit).execute();
  },

  count: async (trx: TenantTransaction, filter: ListFilter) =>
    Number((await filtered(trx, filter).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n),

  /** The occurrences of these ids (those that exist). */
  findMany: (trx: TenantTransaction, ids: readonly number[]) =>
    (ids.length === 0 ? Promise.resolve([]) : trx.selectFrom('occurrences').select(COLUMNS).where('id', 'in', [...ids]).execute()),
};

export type OccurrenceRow = NonNullable<Awaited<ReturnType<typeof occurrencesStore.find>>>;
