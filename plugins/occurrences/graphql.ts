// GraphQL: occurrences (a Relay connection, newest first, filtered) and one
// occurrence, for staff: the principals and roles of GET
// /api/backoffice/occurrences[/{id}] (role staff or admin; API keys get FORBIDDEN).
import { badInput, type ConnectionArgs, decodeCursor, type GraphqlContext, pageSize, toConnection } from 'agent-platform/sdk';
import { requireStaff } from './access.ts';
import type { BackofficeService } from './services/backoffice.ts';
import type { staffOccurrence } from './services/views.ts';
import type { ListFilter } from './store/occurrences.ts';

type Row = ReturnType<typeof staffOccurrence>;

export const typeDefs = /* GraphQL */ `
  "A reported occurrence, as staff see it (reporter contact data included)."
  type Occurrence {
    id: ID!
    reference: String!
    occurrenceType: Int!
    title: String!
    description: String!
    latitude: Float!
    longitude: Float!
    address: String
    state: String!
    duplicateOf: ID
    reporterName: String
    reporterEmail: String
    reporterPhone: String
    dynamicFields: JSON!
    source: String!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  input OccurrenceFilter {
    state: String
    occurrenceType: Int
    reference: String
    text: String
    createdFrom: DateTime
    createdTo: DateTime
  }

  type OccurrenceEdge {
    node: Occurrence!
    cursor: String!
  }

  type OccurrenceConnection {
    edges: [OccurrenceEdge!]!
    pageInfo: PageInfo!
  }

  extend type Query {
    "Occurrences of the tenant, newest first (staff)."
    occurrences(filter: OccurrenceFilter, first: Int, after: String): OccurrenceConnection!
    "One occurrence (staff); null when not found."
    occurrence(id: ID!): Occurrence
  }
`;

interface FilterInput {
  state?: string | null;
  occurrenceType?: number | null;
  reference?: string | null;
  text?: string | null;
  createdFrom?: Date | string | null;
  createdTo?: Date | string | null;
}

const ID = /^[1-9]\d{0,15}$/;
const STATE = /^[a-z][a-z0-9_]{0,63}$/;

function date(value: Date | string | null | undefined, name: string): Date | undefined {
  if (value === null || value === undefined) return undefined;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) throw badInput(`${name} is not a date`);
  return parsed;
}

function filterOf(input: FilterInput | null | undefined): ListFilter {
  const f = input ?? {};
  if (f.state && !STATE.test(f.state)) throw badInput('state is not a state key');
  if (f.reference && !/^[A-Za-z0-9-]{1,40}$/.test(f.reference)) throw badInput('reference is malformed');
  if (f.text && (f.text.length > 200 || f.text.includes('\u0000'))) throw badInput('text: at most 200 characters, no NUL');
  if (f.occurrenceType !== null && f.occurrenceType !== undefined && f.occurrenceType < 1) throw badInput('occurrenceType must be positive');
  return {
    state: f.state ?? undefined, typeId: f.occurrenceType ?? undefined, reference: f.reference ?? undefined, text: f.text || undefined,
    createdFrom: date(f.createdFrom, 'createdFrom'), createdTo: date(f.createdTo, 'createdTo'),
  };
}

export function resolvers(backoffice: BackofficeService) {
  return {
    Query: {
      async occurrences(_: unknown, args: ConnectionArgs & { filter?: FilterInput | null }, context: GraphqlContext) {
        const tenantId = requireStaff(context);
        const size = pageSize(args);
        const after = decodeCursor<number>(args.after);
        if (after !== undefined && !(typeof after === 'number' && Number.isSafeInteger(after) && after > 0)) throw badInput('Malformed cursor');
        const rows = await backoffice.page(tenantId, { ...filterOf(args.filter), beforeId: after }, size + 1);
        return toConnection(rows, size, (row) => row.id, Boolean(args.after));
      },
      occurrence(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireStaff(context);
        return ID.test(args.id) ? backoffice.find(tenantId, Number(args.id)) : null;
      },
    },
    Occurrence: {
      occurrenceType: (row: Row) => row.occurrence_type,
      duplicateOf: (row: Row) => row.duplicate_of,
      reporterName: (row: Row) => row.reporter_name,
      reporterEmail: (row: Row) => row.reporter_email,
      reporterPhone: (row: Row) => row.reporter_phone,
      dynamicFields: (row: Row) => row.dynamic_fields,
      createdAt: (row: Row) => row.created_at,
      updatedAt: (row: Row) => row.updated_at,
    },
  };
}
