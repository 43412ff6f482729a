// Building SQL from trusted parts for the library and patterns: identifiers
// are always quoted, dataset ids are checked by the lakehouse, and values
// travel as $N parameters (never spliced into the text). What comes out is
// tenant SQL like any other: it goes through the same analysis before it runs.
export const IDENTIFIER = '^[A-Za-z_][A-Za-z0-9_]{0,62}$';

export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A dataset id as a relation: each segment quoted (a tenant alias may hold a hyphen). */
export const datasetRef = (datasetId: string) => datasetId.split('.').map(ident).join('.');

/** Parameters collected while building: `$N` for the Nth value. */
export class ParameterList {
  readonly declarations: Record<string, unknown> = {};
  private count = 0;

  /** A placeholder for a value (its JSON type becomes its declared type; null as text). */
  add(value: unknown): string {
    this.count += 1;
    const type = Array.isArray(value) ? 'array' : value === null ? 'string' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
    this.declarations[`p${this.count}`] = { type, default: value };
    return `$${this.count}`;
  }
}
