// Entity resolution of one tenant's records under a policy version: the
// candidate pairs come from SQL (store/match.ts); here they become merges.
// Rules apply in policy order, and within a rule the most similar pairs
// first: a pair whose records are already in one cluster is no merge, so
// every reported pair names the rule that actually joined its two clusters,
// and the pairs form a spanning forest of the clusters (transitive: a~b and
// b~c put a, b and c in one entity).
import { domainError, isSqlTimeout, type CoreServices, type TenantSqlMode } from 'agent-platform/sdk';
import type { IdentityMatch, IdentityPolicyVersion, IdentityRecord } from '../api.ts';
import { matchStore, type MatchRow } from '../store/match.ts';

function unionFind(size: number) {
  const parent = Int32Array.from({ length: size }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  return {
    find,
    /** Joins the two sets; false when they were one already. */
    union(a: number, b: number): boolean {
      const ra = find(a);
      const rb = find(b);
      if (ra === rb) return false;
      if (ra < rb) parent[rb] = ra;
      else parent[ra] = rb;
      return true;
    },
  };
}

const byRuleThenScore = (x: MatchRow, y: MatchRow) => x.rule - y.rule || y.score - x.score || x.a - y.a || x.b - y.b;

export function mergesOf(policy: IdentityPolicyVersion, records: IdentityRecord[], rows: MatchRow[]): IdentityMatch {
  const sets = unionFind(records.length);
  const pairs: IdentityMatch['pairs'] = [];
  for (const row of rows.filter((r) => r.kind === 'pair').sort(byRuleThenScore)) {
    if (!sets.union(row.a, row.b)) continue;
    const rule = policy.rules[row.rule];
    pairs.push({ a: records[row.a].ref, b: records[row.b].ref, rule: rule.name, ...(rule.kind === 'fuzzy' ? { score: Math.round(row.score * 1000) / 1000 } : {}) });
  }
  const groups = new Map<number, string[]>();
  records.forEach((record, i) => {
    const root = sets.find(i);
    const group = groups.get(root);
    if (group) group.push(record.ref);
    else groups.set(root, [record.ref]);
  });
  const clusters = [...groups.values()].filter((g) => g.length > 1);
  const skippedBlocks = rows.filter((r) => r.kind === 'skipped').map((r) => ({ key: r.block ?? '', size: r.b }));
  return { pairs, clusters, skippedBlocks };
}

/**
 * Matching through core.tenantSql. `interactive` (a dry run: a request waits
 * on it): the smaller of TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS and
 * IDENTITY_MATCH_TIMEOUT_SECONDS, past it 422 SQL_TIMEOUT. `job` (the api's
 * match): IDENTITY_MATCH_TIMEOUT_SECONDS, past it 422 IDENTITY_MATCH_TIMEOUT.
 */
export function createMatcher(core: CoreServices, timeoutSeconds: number) {
  return async (tenantId: string, policy: IdentityPolicyVersion, records: IdentityRecord[], mode: TenantSqlMode = 'job'): Promise<IdentityMatch> => {
    if (policy.rules.length === 0 || records.length < 2) return mergesOf(policy, records, []);
    const budget = { mode, timeoutMs: timeoutSeconds * 1000, setting: 'IDENTITY_MATCH_TIMEOUT_SECONDS' };
    const rows = await core.tenantSql.run(tenantId, budget, ({ trx }) => matchStore.candidates(trx, policy, records)).catch((err: unknown) => {
      // Past the budget: too many records, or blocks too large, for the time allowed.
      if (mode === 'job' && isSqlTimeout(err)) {
        throw domainError(422, `Matching took longer than ${timeoutSeconds} s (IDENTITY_MATCH_TIMEOUT_SECONDS): use smaller samples, narrower blocking keys or a smaller max_block_size`, 'IDENTITY_MATCH_TIMEOUT');
      }
      throw err;
    });
    return mergesOf(policy, records, rows);
  };
}
