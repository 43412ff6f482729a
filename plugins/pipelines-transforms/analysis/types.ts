// What the analysis passes produce.
export interface SqlError {
  code: string;
  message: string;
  line?: number;
  column?: number;
}

/** A relation the SQL names: a dataset id (three parts) at a byte offset. */
export interface RelationRef {
  datasetId: string;
  location: number;
  /** The alias written after it, if any (the rewrite keeps it; without one the table segment becomes the alias). */
  alias: string | null;
  table: string;
}
