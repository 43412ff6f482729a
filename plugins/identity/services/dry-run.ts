// A policy's dry run: the merges it would make on a
// sample, given in the body or read from a dataset the tenant may read (the
// lake's read rule), each with the rule that matched. Nothing is stored.
import { badRequest, notFound } from 'agent-platform/sdk';
import type { IdentityMatch, IdentityPolicyVersion, IdentityRecord } from '../api.ts';
import type { IdentityContext } from './context.ts';
import type { PolicyService } from './policies.ts';
import { sampleStore } from '../store/sample.ts';

export interface DryRunInput {
  version?: number;
  records?: IdentityRecord[];
  dataset_id?: string;
  ref_column?: string;
  limit?: number;
}

type Match = (tenantId: string, policy: IdentityPolicyVersion, records: IdentityRecord[], mode: 'interactive') => Promise<IdentityMatch>;

export function createDryRun(context: IdentityContext, policies: PolicyService, match: Match) {
  const { core, options } = context;

  async function datasetSample(tenantId: string, datasetId: string, refColumn: string | undefined, limit: number): Promise<IdentityRecord[]> {
    const lake = context.lake();
    const dataset = await lake.readable(tenantId, datasetId);
    if (refColumn && !dataset.columns.some((c) => c.name === refColumn)) {
      throw badRequest(`Dataset ${datasetId} has no column ${refColumn}`, 'IDENTITY_REF_COLUMN_UNKNOWN');
    }
    const rows = await core.withTenant(tenantId, (trx) => sampleStore.rows(trx, lake.asOf(dataset), limit));
    return rows.map((values, i) => ({ ref: refColumn ? String(values[refColumn] ?? `row ${i + 1}`) : `row ${i + 1}`, values }));
  }

  return async (tenantId: string, policyId: string, input: DryRunInput) => {
    if ((input.records === undefined) === (input.dataset_id === undefined)) {
      throw badRequest('Give either records or dataset_id', 'IDENTITY_DRY_RUN_INPUT');
    }
    const policy = await policies.getVersion(tenantId, policyId, input.version);
    if (!policy) {
      await policies.get(tenantId, policyId); // 404 for the policy itself
      throw notFound(`Identity policy ${policyId} has no version ${input.version}`, 'IDENTITY_POLICY_VERSION_NOT_FOUND');
    }
    const limit = Math.min(input.limit ?? options.dryRunMaxRecords, options.dryRunMaxRecords);
    let records = input.records;
    if (records) {
      if (records.length > options.dryRunMaxRecords) {
        throw badRequest(`A dry run takes at most ${options.dryRunMaxRecords} records (IDENTITY_DRY_RUN_MAX_RECORDS)`, 'IDENTITY_DRY_RUN_TOO_LARGE');
      }
      const refs = new Set(records.map((r) => r.ref));
      if (refs.size !== records.length) throw badRequest('Record refs must be unique', 'IDENTITY_DUPLICATE_REF');
    } else {
      records = await datasetSample(tenantId, input.dataset_id!, input.ref_column, limit);
    }
    // A request waits on it: the interactive budget (422 SQL_TIMEOUT past it).
    const result = await match(tenantId, policy, records, 'interactive');
    return {
      policy_id: policy.id, version: policy.version, fingerprint: policy.fingerprint, records: records.length,
      merges: result.pairs, clusters: result.clusters, skipped_blocks: result.skippedBlocks ?? [], stored: false,
    };
  };
}
