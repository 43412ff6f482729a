// Duplicate detection at submit time: reports of the same
// type, inside the type's radius and window, not in a final state, ranked by
// distance and text similarity. The box prefilter runs on the index; the
// exact distance (haversine) is computed on the few rows inside the box.
//
// text_similarity is pg_trgm's trigram similarity of the two reports' title
// and description (0..1); ranking adds the full-text rank of any of the new
// report's words: score = 0.5 (1 - distance / radius) + 0.4 trigram + 0.1 rank.
// suggested_action: `create` when nothing is similar, `link` when the best
// match is very likely the same report (within half the radius and a text
// similarity of at least 0.5), `review` otherwise.
import type { TenantTransaction } from 'agent-platform/sdk';
import { boundingBox, distanceMeters } from '../domain/geo.ts';
import { candidates } from '../store/duplicates.ts';
import { statesStore } from '../store/states.ts';
import type { TypeRow } from '../store/types.ts';

/** How many similar reports an answer lists. */
export const MAX_SIMILAR = 10;
const LINK_SIMILARITY = 0.5;

export interface SimilarReport {
  id: number;
  reference: string;
  title: string;
  state: string;
  distance_m: number;
  text_similarity: number;
  created_at: Date;
}

export interface DuplicateCheck {
  has_duplicates: boolean;
  suggested_action: 'create' | 'review' | 'link';
  similar_reports: SimilarReport[];
}

export interface Report {
  title: string;
  description: string;
  latitude: number;
  longitude: number;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function findDuplicates(trx: TenantTransaction, type: TypeRow, report: Report, now: Date): Promise<DuplicateCheck> {
  const radius = type.duplicate_radius_m;
  const since = new Date(now.getTime() - type.duplicate_window_days * 86_400_000);
  const finals = await statesStore.finalKeys(trx);
  const text = `${report.title} ${report.description}`.trim();
  const rows = await candidates(trx, type.id, boundingBox(report.latitude, report.longitude, radius), since, finals, text);
  const scored = rows
    .map((row) => ({ row, distance: distanceMeters(report.latitude, report.longitude, row.latitude, row.longitude) }))
    .filter(({ distance }) => distance <= radius)
    .map(({ row, distance }) => ({ row, distance, score: 0.5 * (1 - distance / radius) + 0.4 * row.trigram + 0.1 * row.rank }))
    .sort((a, b) => b.score - a.score || a.distance - b.distance || a.row.id - b.row.id)
    .slice(0, MAX_SIMILAR);
  const similar = scored.map(({ row, distance }) => ({
    id: row.id, reference: row.reference, title: row.title, state: row.state,
    distance_m: round(distance, 1), text_similarity: round(row.trigram, 3), created_at: row.created_at,
  }));
  if (!similar.length) return { has_duplicates: false, suggested_action: 'create', similar_reports: [] };
  const best = similar[0];
  const link = best.distance_m <= radius / 2 && best.text_similarity >= LINK_SIMILARITY;
  return { has_duplicates: true, suggested_action: link ? 'link' : 'review', similar_reports: similar };
}
