// Backing datasets: a lake dataset (readable by the tenant under the read
// rule, checked on register and on every change) mapped onto an entity type:
// column → property mappings, the key columns (mapped onto the type's keys)
// and an optional identity policy. Their effective spec (sync/fingerprint.ts) is
// computed here; syncs are in services/syncs.ts.
import { badRequest, conflict, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { DatasetInfo } from '../../lakehouse/api.ts';
import type { OntologyContext } from './context.ts';
import { effectiveSpec, fingerprintOf, type EffectiveSpec } from '../sync/fingerprint.ts';
import { keyNormalizationOf } from '../sync/identity-keys.ts';
import { actorOf, type OntologyCaller } from '../authorization/policy.ts';
import { backingDatasetsStore, type BackingDatasetRow, type BackingDatasetSpec } from '../store/backing-datasets.ts';
import { entitiesStore } from '../store/entities.ts';
import { entityTypesStore, type EntityTypeVersionRow } from '../store/entity-types.ts';
import { runsStore } from '../store/runs.ts';
import { modelSuggestion } from '../suggest/model.ts';
import { suggestMappings } from '../suggest/rules.ts';

export function backingDatasetView(row: BackingDatasetRow) {
  return {
    id: row.id, name: row.name, dataset_id: row.dataset_id, entity_type: row.entity_type, entity_type_version: row.entity_type_version,
    mappings: row.mappings, key_columns: row.key_columns, identity_policy_id: row.identity_policy_id,
    applied_sync_spec_fingerprint: row.applied_sync_spec_fingerprint,
    applied_snapshot_id: row.applied_snapshot_id === null ? null : Number(row.applied_snapshot_id), applied_snapshot_id_exact: row.applied_snapshot_id,
    created_by: row.created_by, created_at: row.created_at, updated_at: row.updated_at,
  };
}

const SAMPLE_ROWS = 50;

const invalid = (message: string) => badRequest(message, 'BACKING_DATASET_INVALID');

/** The type version a backing dataset uses: its pinned one, else the current one. */
async function typeVersionOf(trx: TenantTransaction, spec: Pick<BackingDatasetSpec, 'entity_type' | 'entity_type_version'>): Promise<EntityTypeVersionRow> {
  const row = spec.entity_type_version === null
    ? await entityTypesStore.get(trx, spec.entity_type)
    : await entityTypesStore.version(trx, spec.entity_type, spec.entity_type_version);
  if (!row) throw invalid(`Unknown entity type ${spec.entity_type}${spec.entity_type_version === null ? '' : ` version ${spec.entity_type_version}`}`);
  return row;
}

/** The mappings fit the dataset's columns and the type's properties; the key columns map onto exactly the type's keys. */
function checkMappings(spec: BackingDatasetSpec, dataset: DatasetInfo, type: EntityTypeVersionRow): void {
  const columns = new Set(dataset.columns.map((c) => c.name));
  const properties = new Set(Object.keys((type.properties.properties ?? {}) as Record<string, unknown>));
  const mapped = new Map<string, string>();
  for (const { column, property } of spec.mappings) {
    if (!columns.has(column)) throw invalid(`mappings: column "${column}" is not a column of ${dataset.id}`);
    if (!properties.has(property)) throw invalid(`mappings: property "${property}" is not a property of ${type.code} version ${type.version}`);
    if ([...mapped.values()].includes(property)) throw invalid(`mappings: property "${property}" is mapped twice`);
    mapped.set(column, property);
  }
  const keyProperties = spec.key_columns.map((column) => {
    const property = mapped.get(column);
    if (property === undefined) throw invalid(`key_columns: column "${column}" is not mapped`);
    return property;
  });
  if (keyProperties.length !== type.keys.length || !type.keys.every((key) => keyProperties.includes(key))) {
    throw invalid(`key_columns must map onto the keys of ${type.code} (${type.keys.join(', ')}), got ${keyProperties.join(', ') || 'none'}`);
  }
}

export function createBackingDatasetService(context: OntologyContext) {
  const { core } = context;

  async function identityPolicyOf(tenantId: string, policyId: string | null, trx: TenantTransaction) {
    if (policyId === null) return null;
    const identity = context.identity();
    if (!identity) throw invalid('identity_policy_id: identity policies are not available on this platform (plugin identity not loaded)');
    const policy = await identity.getPolicy(tenantId, policyId, undefined, trx);
    if (!policy) throw invalid(`identity_policy_id: no identity policy ${policyId}`);
    return policy;
  }

  /** Checks a spec against the dataset (read rule) and the type; returns the dataset. */
  async function validate(tenantId: string, trx: TenantTransaction, spec: BackingDatasetSpec): Promise<DatasetInfo> {
    const dataset = await context.lake().readable(tenantId, spec.dataset_id, trx);
    checkMappings(spec, dataset, await typeVersionOf(trx, spec));
    return dataset;
  }

  async function load(trx: TenantTransaction, id: string, lock = false): Promise<BackingDatasetRow> {
    const row = await backingDatasetsStore.get(trx, id, lock);
    if (!row) throw notFound(`Backing dataset not found: ${id}`, 'BACKING_DATASET_NOT_FOUND');
    return row;
  }

  const service = {
    load,
    async list(tenantId: string, page: { after?: string; limit: number }) {
      const rows = await core.withTenant(tenantId, (trx) => backingDatasetsStore.list(trx, page.after, page.limit + 1));
      return { items: rows.slice(0, page.limit).map(backingDatasetView), next_cursor: rows.length > page.limit ? rows[page.limit - 1]!.name : null };
    },

    get: async (tenantId: string, id: string) => backingDatasetView(await core.withTenant(tenantId, (trx) => load(trx, id))),

    byName: (tenantId: string, name: string) => core.withTenant(tenantId, (trx) => backingDatasetsStore.byName(trx, name)),

    /** Checks a spec without writing (the apply planner). */
    check: (tenantId: string, spec: BackingDatasetSpec) => core.withTenant(tenantId, async (trx) => {
      await validate(tenantId, trx, spec);
      await identityPolicyOf(tenantId, spec.identity_policy_id, trx);
    }),

    async create(caller: OntologyCaller, spec: BackingDatasetSpec, trx?: TenantTransaction) {
      const run = async (trx: TenantTransaction) => {
        await validate(caller.tenantId, trx, spec);
        await identityPolicyOf(caller.tenantId, spec.identity_policy_id, trx);
        const id = await backingDatasetsStore.insert(trx, caller.tenantId, spec, actorOf(caller.principal).sub);
        if (!id) throw conflict(`A backing dataset named ${spec.name} already exists`, 'BACKING_DATASET_EXISTS');
        return backingDatasetView((await backingDatasetsStore.get(trx, id))!);
      };
      return trx ? run(trx) : core.withTenant(caller.tenantId, run);
    },

    async update(caller: OntologyCaller, id: string, patch: Partial<BackingDatasetSpec>, given?: TenantTransaction) {
      const run = async (trx: TenantTransaction) => {
        const current = await load(trx, id, true);
        const spec: BackingDatasetSpec = { ...specOf(current), ...patch };
        await validate(caller.tenantId, trx, spec);
        await identityPolicyOf(caller.tenantId, spec.identity_policy_id, trx);
        if (spec.name !== current.name && (await backingDatasetsStore.byName(trx, spec.name))) throw conflict(`A backing dataset named ${spec.name} already exists`, 'BACKING_DATASET_EXISTS');
        await backingDatasetsStore.update(trx, id, spec);
        return backingDatasetView((await backingDatasetsStore.get(trx, id))!);
      };
      return given ? run(given) : core.withTenant(caller.tenantId, run);
    },

    /** Deletes it and the entities it synced (a live sync of it fails on its next statement). */
    remove: (caller: OntologyCaller, id: string) => core.withTenant(caller.tenantId, async (trx) => {
      await load(trx, id, true);
      await backingDatasetsStore.remove(trx, id);
    }),

    /** The effective spec a sync of it would apply now, and its fingerprint. */
    async effective(tenantId: string, trx: TenantTransaction, row: BackingDatasetRow): Promise<{ spec: EffectiveSpec; fingerprint: string; dataset: DatasetInfo }> {
      const dataset = await context.lake().readable(tenantId, row.dataset_id, trx);
      const type = await typeVersionOf(trx, row);
      checkMappings(row, dataset, type);
      const policy = await identityPolicyOf(tenantId, row.identity_policy_id, trx);
      const spec = effectiveSpec({
        dataset_id: row.dataset_id,
        entity_type: { code: type.code, version: type.version, keys: type.keys },
        mappings: row.mappings, key_columns: row.key_columns,
        identity_policy: policy && { id: policy.id, version: policy.version, fingerprint: policy.fingerprint },
        key_normalization: policy ? keyNormalizationOf(policy.rules, row.key_columns) : undefined,
      });
      return { spec, fingerprint: fingerprintOf(spec), dataset };
    },

    /**
     * Column → property suggestions on a dataset the tenant may read: the
     * model's (pipelines-ai loaded, LLM_* set; checked in suggest/model.ts),
     * else the rules' (suggest/rules.ts), also when the model fails (`model_error`).
     */
    async suggest(tenantId: string, input: { dataset_id: string; entity_type: string; entity_type_version?: number }) {
      const { dataset, type, sample } = await core.withTenant(tenantId, async (trx) => {
        const dataset = await context.lake().readable(tenantId, input.dataset_id, trx);
        const type = await typeVersionOf(trx, { entity_type: input.entity_type, entity_type_version: input.entity_type_version ?? null });
        return { dataset, type, sample: await entitiesStore.sample(trx, context.lake().asOf(dataset), SAMPLE_ROWS) };
      });
      const head = { dataset_id: dataset.id, entity_type: type.code, entity_type_version: type.version };
      const ai = context.ai();
      if (ai) {
        // Outside the transaction: a model call may take a minute.
        try {
          const suggestion = await modelSuggestion(ai, tenantId, type, dataset.columns, sample);
          if (suggestion) {
            const { dropped, ...result } = suggestion;
            if (dropped) core.logger.warn({ tenantId, dataset: dataset.id, dropped }, 'ontology: model mappings outside the dataset or the type dropped');
            return { ...head, method: 'model', ...result };
          }
        } catch (err) {
          const boom = err as { isBoom?: boolean; message: string; output?: { payload?: { code?: string } } };
          const modelError = boom.isBoom
            ? { code: boom.output?.payload?.code ?? 'MODEL_FAILED', message: boom.message }
            : { code: 'MODEL_FAILED', message: 'The model suggestion failed' };
          core.logger.warn({ tenantId, dataset: dataset.id, code: modelError.code }, 'ontology: model mapping suggestion failed, rules answer');
          return { ...head, method: 'rules', model_error: modelError, ...suggestMappings(type, dataset.columns, sample) };
        }
      }
      return { ...head, method: 'rules', ...suggestMappings(type, dataset.columns, sample) };
    },

    /** Backing datasets whose lake snapshot or effective spec differ from what their last sync applied. */
    async pending(tenantId: string) {
      return core.withTenant(tenantId, async (trx) => {
        const items = [];
        for (const row of await backingDatasetsStore.all(trx)) {
          const state = await stateOf(tenantId, trx, row);
          if (state.pending) items.push({ backing_dataset_id: row.id, name: row.name, ...state });
        }
        return { items };
      });
    },

    /** Can it sync, and is it current: dataset readable, spec valid, last run, entity count. */
    health: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const row = await load(trx, id);
      const state = await stateOf(tenantId, trx, row);
      const last = await runsStore.latest(trx, id);
      const entities = await entitiesStore.count(trx, id);
      const status = state.problem ? 'failing' : last?.status === 'failed' ? 'degraded' : row.applied_sync_spec_fingerprint === null ? 'never_synced' : state.pending ? 'pending' : 'healthy';
      return {
        backing_dataset_id: id, status, entity_count: entities,
        last_run: last ? { id: last.id, status: last.status, finished_at: last.finished_at, error: last.error } : null,
        ...state,
      };
    }),
  };

  async function stateOf(tenantId: string, trx: TenantTransaction, row: BackingDatasetRow) {
    try {
      const { fingerprint, dataset } = await service.effective(tenantId, trx, row);
      const snapshotChanged = dataset.latestSnapshotId !== row.applied_snapshot_id;
      const specChanged = fingerprint !== row.applied_sync_spec_fingerprint;
      const reasons = [...(snapshotChanged ? ['snapshot_changed'] : []), ...(specChanged ? ['effective_spec_changed'] : [])];
      return {
        pending: dataset.latestSnapshotId !== null && reasons.length > 0, reasons, problem: null as string | null,
        sync_spec_fingerprint: fingerprint, applied_sync_spec_fingerprint: row.applied_sync_spec_fingerprint,
        latest_snapshot_id_exact: dataset.latestSnapshotId, applied_snapshot_id_exact: row.applied_snapshot_id,
      };
    } catch (err) {
      // A dataset no longer readable or a mapping the type no longer has: reported, not thrown.
      const message = (err as { isBoom?: boolean; message: string }).isBoom ? (err as Error).message : 'the backing dataset cannot be checked';
      return {
        pending: false, reasons: [] as string[], problem: message, sync_spec_fingerprint: null, applied_sync_spec_fingerprint: row.applied_sync_spec_fingerprint,
        latest_snapshot_id_exact: null, applied_snapshot_id_exact: row.applied_snapshot_id,
      };
    }
  }

  return service;
}

export function specOf(row: BackingDatasetRow): BackingDatasetSpec {
  return {
    name: row.name, dataset_id: row.dataset_id, entity_type: row.entity_type, entity_type_version: row.entity_type_version,
    mappings: row.mappings, key_columns: row.key_columns, identity_policy_id: row.identity_policy_id,
  };
}

export type BackingDatasetService = ReturnType<typeof createBackingDatasetService>;
