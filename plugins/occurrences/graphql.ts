// GraphQL: occurrences (a Relay connection both ways, newest first,
// filtered, with totalCount), one occurrence, and the transitionOccurrence
// mutation, for staff: the principals and roles of GET
// /api/backoffice/occurrences[/{id}] and POST
// /api/occurrences/{id}/transition_state (role staff or admin; API keys get
// FORBIDDEN). An occurrence's type and the occurrence it duplicates are
// loaded in one query per page (DataLoader).
import DataLoader from 'dataloader';
import type { Request } from '@hapi/hapi';
import { badInput, type ConnectionArgs, type GraphqlContext, keysetConnection, requirePrincipal } from 'agent-platform/sdk';
import { requireStaff } from './access.ts';
import type { BackofficeService } from './services/backoffice.ts';
import type { StatesService } from './services/states.ts';
import type { staffOccurrence } from './services/views.ts';
import type { ListFilter } from './store/occurrences.ts';

type Row = ReturnType<typeof staffOccurrence>;
type TypeRef = { id: number; name: string; code: string };

export const typeDefs = /* GraphQL */ `
  "A reported occurrence, as staff see it (reporter contact data included)."
  type Occurrence {
    id: ID!
    reference: String!
    "The id of the occurrence's type."
    occurrenceTypeId: ID!
    "The occurrence's type (null once deleted)."
    occurrenceType: OccurrenceType
    title: String!
    description: String!
    latitude: Float!
    longitude: Float!
    address: String
    "The key of the occurrence's state in the tenant's state graph (the tenant defines its states)."
    state: String!
    "The id of the occurrence this one duplicates (state duplicate)."
    duplicateOfId: ID
    "The occurrence this one duplicates."
    duplicateOf: Occurrence
    reporterName: String
    reporterEmail: String
    reporterPhone: String
    dynamicFields: JSON!
    source: String!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  "A type of occurrence (what the occurrence detail shows of it)."
  type OccurrenceType {
    id: ID!
    name: String!
    code: String!
  }

  "Which occurrences a list holds."
  input OccurrenceFilter {
    "A state key."
    state: String
    occurrenceTypeId: ID
    "The exact reference."
    reference: String
    "Words in the title, description, address or reference."
    text: String
    "Created at or after this."
    createdAfter: DateTime
    "Created before this."
    createdBefore: DateTime
  }

  "An occurrence in a page of occurrences."
  type OccurrenceEdge {
    node: Occurrence!
    cursor: String!
  }

  "A page of occurrences, newest first."
  type OccurrenceConnection {
    edges: [OccurrenceEdge!]!
    pageInfo: PageInfo!
    "The occurrences of the filter."
    totalCount: Int!
  }

  "A move of an occurrence to another state of the tenant's graph."
  input TransitionOccurrenceInput {
    "The state key to move to (one the graph allows from the current state)."
    toState: String!
    "Recorded in the occurrence's history."
    comment: String
    "The state the caller saw: a different current state is a STATE_CHANGED error."
    expectedState: String
    "The occurrence this one duplicates: required for the state duplicate, refused for any other."
    duplicateOfId: ID
  }

  extend type Query {
    "Occurrences of the tenant, newest first (staff)."
    occurrences(filter: OccurrenceFilter, first: Int, after: String, last: Int, before: String): OccurrenceConnection!
    "One occurrence (staff); null when not found."
    occurrence(id: ID!): Occurrence
  }

  type Mutation {
    "Move an occurrence to another state, recorded in its history (staff; as POST /api/occurrences/{id}/transition_state)."
    transitionOccurrence(id: ID!, input: TransitionOccurrenceInput!): Occurrence!
  }
`;

interface FilterInput {
  state?: string | null;
  occurrenceTypeId?: string | null;
  reference?: string | null;
  text?: string | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
}

interface TransitionArgs {
  id: string;
  input: { toState: string; comment?: string | null; expectedState?: string | null; duplicateOfId?: string | null };
}

const ID = /^[1-9]\d{0,15}$/;
const STATE = /^[a-z][a-z0-9_]{0,63}$/;

/** The number of a valid integer id, else undefined. */
function idOf(value: string): number | undefined {
  return ID.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : undefined;
}

function requireId(value: string, name: string, kind: string): number {
  const id = idOf(value);
  if (id === undefined) throw badInput(`${name} is not a valid ${kind} id`);
  return id;
}

function date(value: Date | null | undefined, name: string): Date | undefined {
  if (value === null || value === undefined) return undefined;
  if (Number.isNaN(value.getTime())) throw badInput(`${name} is not a date`);
  return value;
}

function filterOf(input: FilterInput | null | undefined): ListFilter {
  const f = input ?? {};
  if (f.state && !STATE.test(f.state)) throw badInput('state is not a state key');
  if (f.reference && !/^[A-Za-z0-9-]{1,40}$/.test(f.reference)) throw badInput('reference is malformed');
  if (f.text && (f.text.length > 200 || f.text.includes('\u0000'))) throw badInput('text: at most 200 characters, no NUL');
  const typeId = f.occurrenceTypeId === null || f.occurrenceTypeId === undefined
    ? undefined : requireId(f.occurrenceTypeId, 'occurrenceTypeId', 'occurrence type');
  return {
    state: f.state ?? undefined, typeId, reference: f.reference ?? undefined, text: f.text || undefined,
    createdFrom: date(f.createdAfter, 'createdAfter'), createdTo: date(f.createdBefore, 'createdBefore'),
  };
}

/** The REST body of the same transition, checked as its route checks it. */
function transitionOf(input: TransitionArgs['input']) {
  if (!STATE.test(input.toState)) throw badInput('toState is not a state key');
  if (input.expectedState != null && !STATE.test(input.expectedState)) throw badInput('expectedState is not a state key');
  if (input.comment != null && input.comment.length > 5000) throw badInput('comment: at most 5000 characters');
  return {
    to_state: input.toState,
    comment: input.comment ?? '',
    ...(input.expectedState != null ? { expected_state: input.expectedState } : {}),
    ...(input.duplicateOfId != null ? { duplicate_of: requireId(input.duplicateOfId, 'duplicateOfId', 'occurrence') } : {}),
  };
}

const isId = (key: unknown) => Number.isSafeInteger(key) && (key as number) > 0;

export function resolvers(backoffice: BackofficeService, states: StatesService) {
  // One pair of loaders per request: a page's types and duplicated occurrences in one query each.
  const loaders = new WeakMap<Request, { types: DataLoader<number, TypeRef | null>; occurrences: DataLoader<number, Row | null> }>();
  function loadersOf(context: GraphqlContext, tenantId: string) {
    let pair = loaders.get(context.request);
    if (!pair) {
      pair = {
        types: new DataLoader((ids: readonly number[]) => backoffice.typesOf(tenantId, ids)),
        occurrences: new DataLoader((ids: readonly number[]) => backoffice.findMany(tenantId, ids)),
      };
      loaders.set(context.request, pair);
    }
    return pair;
  }

  return {
    Query: {
      occurrences(_: unknown, args: ConnectionArgs & { filter?: FilterInput | null }, context: GraphqlContext) {
        const tenantId = requireStaff(context);
        const filter = filterOf(args.filter);
        return keysetConnection(args, {
          keyOf: (row: Row) => row.id,
          validKey: isId,
          fetch: (page) => backoffice.page(tenantId, filter, page),
          count: () => backoffice.count(tenantId, filter),
        });
      },
      occurrence(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireStaff(context);
        const id = idOf(args.id);
        return id === undefined ? null : backoffice.find(tenantId, id);
      },
    },
    Mutation: {
      transitionOccurrence(_: unknown, args: TransitionArgs, context: GraphqlContext) {
        const tenantId = requireStaff(context);
        const id = requireId(args.id, 'id', 'occurrence');
        return states.transition(tenantId, id, transitionOf(args.input), requirePrincipal(context).sub);
      },
    },
    Occurrence: {
      occurrenceTypeId: (row: Row) => row.occurrence_type,
      occurrenceType: (row: Row, _: unknown, context: GraphqlContext) => loadersOf(context, requireStaff(context)).types.load(row.occurrence_type),
      duplicateOfId: (row: Row) => row.duplicate_of,
      duplicateOf: (row: Row, _: unknown, context: GraphqlContext) =>
        (row.duplicate_of === null ? null : loadersOf(context, requireStaff(context)).occurrences.load(row.duplicate_of)),
      reporterName: (row: Row) => row.reporter_name,
      reporterEmail: (row: Row) => row.reporter_email,
      reporterPhone: (row: Row) => row.reporter_phone,
      dynamicFields: (row: Row) => row.dynamic_fields,
      createdAt: (row: Row) => row.created_at,
      updatedAt: (row: Row) => row.updated_at,
    },
  };
}
