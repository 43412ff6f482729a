// The duplicate check's query: occurrences of one type created since a time,
// not in a final state, inside a latitude/longitude box (the index range of
// occurrences_box), with their text similarity to the new report: pg_trgm's
// trigram similarity, and the full-text rank of any of its words.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import type { Box } from '../domain/geo.ts';

export interface Candidate {
  id: number;
  reference: string;
  title: string;
  state: string;
  latitude: number;
  longitude: number;
  created_at: Date;
  trigram: number;
  rank: number;
}

/** At most this many rows of a box are ranked (a box holding more is a hot spot: the nearest come first anyway). */
export const CANDIDATE_LIMIT = 200;

export async function candidates(trx: TenantTransaction, typeId: number, box: Box, since: Date, finalStates: string[], text: string): Promise<Candidate[]> {
  const notFinal = finalStates.length ? sql`AND state <> ALL(${finalStates}::text[])` : sql``;
  const result = await sql<Candidate>`
    SELECT id, reference, title, state, latitude, longitude, created_at,
           similarity(search_text, ${text})::float8 AS trigram,
           ts_rank(search_vector, query.any_word, 32)::float8 AS rank
      FROM occurrences, (SELECT replace(plainto_tsquery('simple', ${text})::text, '&', '|')::tsquery AS any_word) AS query
     WHERE type_id = ${typeId}
       AND latitude BETWEEN ${box.minLat} AND ${box.maxLat}
       AND longitude BETWEEN ${box.minLon} AND ${box.maxLon}
       AND created_at >= ${since}
       ${notFinal}
     LIMIT ${CANDIDATE_LIMIT}`.execute(trx);
  return result.rows;
}
