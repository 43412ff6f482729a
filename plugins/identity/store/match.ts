// The matching query (SQL of identity policies): the records arrive as one
// jsonb array, are normalized once (a materialized CTE), and every rule finds
// its candidate pairs with equality joins only, so matching stays
// sub-quadratic:
// - exact and normalized rules: records with equal keys form a group; each
//   is paired with the group's first record (a star: the clusters are the
//   same as with every pair, with n-1 pairs instead of n²/2);
// - fuzzy rules: records meeting in a block (a blocking key, or the rule's
//   fields without threshold) are compared with pg_trgm's similarity; blocks
//   larger than the policy's max_block_size are left out and reported.
// Field names are quoted literals (checked by the policy's schema too).
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import type { BlockingKey, IdentityField, IdentityPolicyVersion, IdentityRecord } from '../api.ts';
import { normalizeSql } from '../matching/normalizers.ts';

export interface MatchRow {
  kind: 'pair' | 'skipped';
  rule: number;
  a: number;
  b: number;
  score: number;
  block: string | null;
}

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** A scalar property of a record as text (objects and arrays are null, as in normalize()). */
const valueOf = (field: string) =>
  `CASE WHEN jsonb_typeof(x->'v'->${literal(field)}) IN ('string', 'number', 'boolean') THEN x->'v'->>${literal(field)} END`;

const fieldSql = (f: IdentityField) => (f.normalizers?.length ? normalizeSql(valueOf(f.field), f.normalizers) : `nullif(${valueOf(f.field)}, '')`);
const blockSql = (k: BlockingKey) => (k.prefix ? `left(${fieldSql(k)}, ${Math.trunc(k.prefix)})` : fieldSql(k));

/** The matching statement; `__RECORDS__` stands for the records parameter. */
export function buildQuery(policy: IdentityPolicyVersion): string {
  const columns: string[] = [];
  const named = new Map<string, string>();
  // One column per distinct expression: a field two rules normalize alike is normalized once.
  const column = (expr: string) => {
    const known = named.get(expr);
    if (known) return known;
    const name = `c${columns.length}`;
    columns.push(`${expr} AS ${name}`);
    named.set(expr, name);
    return name;
  };
  const blocks = policy.blocking_keys.map((k) => column(blockSql(k)));
  const ctes: string[] = [];
  const branches: string[] = [];
  const max = Math.trunc(policy.max_block_size);

  policy.rules.forEach((rule, r) => {
    const fields = rule.fields.map((f) => ({ f, c: column(fieldSql(f)) }));
    const equal = fields.filter(({ f }) => f.threshold === undefined).map(({ c }) => c);
    const fuzzy = fields.filter(({ f }) => f.threshold !== undefined);
    const notNull = (cs: string[]) => cs.map((c) => `${c} IS NOT NULL`).join(' AND ') || 'true';
    if (rule.kind !== 'fuzzy') {
      branches.push(`SELECT 'pair', ${r}, j, i, 1::real, NULL::text FROM (SELECT i, first_value(i) OVER (PARTITION BY ${equal.join(', ')} ORDER BY i) AS j FROM rec WHERE ${notNull(equal)}) g WHERE i <> j`);
      return;
    }
    const similar = fuzzy.map(({ f, c }) => `similarity(a.${c}, b.${c}) >= ${Number(f.threshold)}`).join(' AND ');
    const score = `(${fuzzy.map(({ c }) => `similarity(a.${c}, b.${c})`).join(' + ')}) / ${fuzzy.length}`;
    const usable = notNull(fuzzy.map(({ c }) => c));
    // The block a fuzzy rule compares in: its equal fields, else each blocking key.
    const keySets = equal.length ? [equal] : blocks.map((b) => [b]);
    const candidates = keySets.map((keys, k) => {
      const name = `r${r}k${k}`;
      const label = equal.length ? `rule ${rule.name}` : `blocking key ${policy.blocking_keys[k].field}`;
      ctes.push(`${name} AS MATERIALIZED (SELECT *, count(*) OVER (PARTITION BY ${keys.join(', ')}) AS n FROM rec WHERE ${notNull(keys)} AND ${usable})`);
      branches.push(`SELECT DISTINCT 'skipped', ${r}, 0, n::int, 0::real, ${literal(label)} || ': ' || ${keys.map((c) => `${c}`).join(` || '|' || `)} FROM ${name} WHERE n > ${max}`);
      return `SELECT a.i AS a, b.i AS b, ${score} AS score FROM ${name} a JOIN ${name} b ON ${keys.map((c) => `a.${c} = b.${c}`).join(' AND ')} AND a.i < b.i`
        + ` WHERE a.n <= ${max} AND b.n <= ${max} AND ${similar}`;
    });
    branches.push(`SELECT 'pair', ${r}, a, b, max(score)::real, NULL::text FROM (${candidates.join(' UNION ALL ')}) c GROUP BY a, b`);
  });

  const rec = `rec AS MATERIALIZED (SELECT (e.ord - 1)::int AS i${columns.length ? ', ' : ''}${columns.join(', ')} FROM jsonb_array_elements(__RECORDS__::jsonb) WITH ORDINALITY AS e(x, ord))`;
  return `WITH ${[rec, ...ctes].join(', ')} SELECT * FROM (${branches.map((b) => `(${b})`).join(' UNION ALL ')}) m(kind, rule, a, b, score, block)`;
}

export const matchStore = {
  /** Candidate merges of every rule (records by index), and the blocks too large to compare; in a transaction core.tenantSql entered. */
  async candidates(trx: TenantTransaction, policy: IdentityPolicyVersion, records: IdentityRecord[]): Promise<MatchRow[]> {
    const payload = JSON.stringify(records.map((r) => ({ v: r.values })));
    const [before, after] = buildQuery(policy).split('__RECORDS__');
    const result = await sql<MatchRow>`${sql.raw(before)}${payload}${sql.raw(after)}`.execute(trx);
    return result.rows;
  },
};
