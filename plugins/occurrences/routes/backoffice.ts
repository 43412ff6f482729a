// The staff backoffice: occurrences (list, detail, transition),
// the state graph (staff read, staff-admin replace), allowed transitions,
// and the tenant's service area (staff admin). Staff: role staff or admin.
import { principalOf, tenantOf, type Request, type ServerRoute } from 'agent-platform/sdk';
import { staffTenant } from '../access.ts';
import type { BackofficeService } from '../services/backoffice.ts';
import type { SettingsService } from '../services/settings.ts';
import type { GraphInput, StatesService, TransitionInput } from '../services/states.ts';
import type { ListFilter, SortKey } from '../store/occurrences.ts';
import * as s from '../schemas.ts';

const tags = ['api', 'occurrences'];
const member = { tenant: 'required' } as const;
const admin = { tenant: 'required', role: 'admin' } as const;
const staffNote = 'Staff: a user of the tenant with the role staff or admin (403 ROLE_REQUIRED otherwise).';

interface ListQuery {
  state?: string;
  type?: number;
  reference?: string;
  text?: string;
  created_from?: Date;
  created_to?: Date;
  bbox?: string;
  near?: string;
  radius: number;
  sort: SortKey;
  skip: number;
  limit: number;
}

function filterOf(q: ListQuery): ListFilter {
  const filter: ListFilter = { state: q.state, typeId: q.type, reference: q.reference, text: q.text, createdFrom: q.created_from, createdTo: q.created_to };
  if (q.bbox) {
    const [minLon, minLat, maxLon, maxLat] = q.bbox.split(',').map(Number);
    filter.box = { minLat, maxLat, minLon, maxLon };
  }
  if (q.near) {
    const [lat, lon] = q.near.split(',').map(Number);
    filter.near = { lat, lon, radius: q.radius };
  }
  return filter;
}

const idOf = (request: Request) => request.params.id as unknown as number;

export function backofficeRoutes(backoffice: BackofficeService, states: StatesService, settings: SettingsService): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/backoffice/occurrences',
      options: {
        auth: 'bearer', tags, plugins: { platform: member },
        description: 'List occurrences: filter by state, type, reference, text, created range, bounding box, near a point; sort; paginate',
        notes: `${staffNote} Reporter contact data included.`,
        validate: { query: s.listQuery }, response: { schema: s.listOf(s.staffOccurrence, 'OccurrenceList') },
      },
      handler: (request) => {
        const q = request.query as unknown as ListQuery;
        return backoffice.list(staffTenant(request), filterOf(q), q.sort, q.skip, q.limit);
      },
    },
    {
      method: 'GET', path: '/api/backoffice/occurrences/{id}',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'An occurrence with its type, history, messages, attachments and linked duplicates',
        notes: staffNote, validate: { params: s.idParams }, response: { schema: s.occurrenceDetail },
      },
      handler: (request) => backoffice.get(staffTenant(request), idOf(request)),
    },
    {
      method: 'POST', path: '/api/occurrences/{id}/transition_state',
      options: {
        auth: 'bearer', tags, plugins: { platform: member },
        description: 'Move an occurrence to another state of the graph, recorded in its history; the send_on_enter templates of the new state are applied in the same transaction (messages_sent)',
        notes: `${staffNote} 409 TRANSITION_NOT_ALLOWED with allowed_transitions; 409 STATE_CHANGED when expected_state is stale; to_state duplicate needs duplicate_of (422). A refused move records and sends nothing.`,
        validate: { params: s.idParams, payload: s.transitionBody }, response: { schema: s.transitioned },
      },
      handler: (request) => states.transition(staffTenant(request), idOf(request), request.payload as TransitionInput, principalOf(request).sub),
    },
    {
      method: 'GET', path: '/api/backoffice/states',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'The tenant\'s states and transition graph (seeded with the defaults on first use)',
        notes: staffNote, response: { schema: s.graph },
      },
      handler: (request) => states.graph(staffTenant(request)),
    },
    {
      method: 'PUT', path: '/api/backoffice/states',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Replace the states and transition graph (staff admin)',
        notes: '400 STATE_GRAPH_INVALID: one initial state, at least one final, transitions between listed states, no state removed that holds occurrences.',
        validate: { payload: s.graphBody }, response: { schema: s.graph },
      },
      handler: (request) => states.replace(tenantOf(request), request.payload as GraphInput),
    },
    {
      method: 'GET', path: '/api/backoffice/states/allowed_transitions',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'The transitions the caller may make now on an occurrence',
        notes: staffNote, validate: { query: s.occurrenceQuery }, response: { schema: s.allowed },
      },
      handler: (request) => states.allowed(staffTenant(request), (request.query as { occurrence_id: number }).occurrence_id),
    },
    {
      method: 'GET', path: '/api/backoffice/settings',
      options: { auth: 'bearer', tags, plugins: { platform: admin }, description: 'The tenant\'s occurrence settings: its service area (staff admin)', response: { schema: s.settings } },
      handler: (request) => settings.get(tenantOf(request)),
    },
    {
      method: 'PUT', path: '/api/backoffice/settings',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Set the service area (GeoJSON Polygon or MultiPolygon; null: none): submissions outside it get 422',
        validate: { payload: s.settingsBody }, response: { schema: s.settings },
      },
      handler: (request) => settings.put(tenantOf(request), (request.payload as { service_area: Record<string, unknown> | null }).service_area),
    },
  ];
}
