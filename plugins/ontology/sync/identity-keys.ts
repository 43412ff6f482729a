// How a backing dataset's identity policy shapes entity keys at sync time
// (plugin `identity`). For each key column, the first `normalized` rule (in
// policy order, the order rules merge in) that names the column gives its
// normalizers; the sync builds the key from the normalized values, so rows
// whose keys differ only by case, accents, whitespace, phone or e-mail
// formatting become one entity. `exact` rules compare values as given (the
// key's own rule), so they change nothing; `fuzzy` rules never change keys at
// sync time: a similarity is not an equality, so they are for review with
// the policy's dry run. Rules naming non-key columns do not touch keys.
import type { IdentityRule } from '../../identity/api.ts';

/** A key column and the normalizers of the rule that shapes it. */
export interface KeyNormalization {
  column: string;
  normalizers: string[];
  rule: string;
}

export function keyNormalizationOf(rules: IdentityRule[], keyColumns: string[]): KeyNormalization[] {
  const result: KeyNormalization[] = [];
  for (const column of keyColumns) {
    for (const rule of rules) {
      if (rule.kind !== 'normalized') continue;
      const field = rule.fields.find((f) => f.field === column && (f.normalizers ?? []).length > 0);
      if (field) {
        result.push({ column, normalizers: [...field.normalizers!], rule: rule.name });
        break;
      }
    }
  }
  return result;
}
