// GraphQL: form submissions (a Relay connection both ways, newest first,
// filtered by use case, hydration status and creation time, with
// totalCount), one submission with its use case, form definition and the
// model and id of the object it hydrated. Access as REST's GET
// /api/admin/forms/submissions[/{id}] (and GET /api/admin/forms/use-cases/{id},
// /definitions/{id} for the nested objects): a tenant admin (payloads hold
// what citizens typed); API keys get FORBIDDEN. A page's use cases and
// definitions are loaded in one query each per request (DataLoader).
import DataLoader from 'dataloader';
import type { Request } from '@hapi/hapi';
import { badInput, type ConnectionArgs, type GraphqlContext, isUuid, keysetConnection, requireAdmin } from 'agent-platform/sdk';
import type { AdminSubmissionsService } from './services/admin-submissions.ts';
import type { SubmissionFilter, SubmissionRow } from './store/submissions.ts';

type UseCaseRow = NonNullable<Awaited<ReturnType<AdminSubmissionsService['useCasesOf']>>[number]>;
type DefinitionRow = NonNullable<Awaited<ReturnType<AdminSubmissionsService['definitionsOf']>>[number]>;

export const typeDefs = /* GraphQL */ `
  enum FormHydrationStatus {
    HYDRATED
    FAILED
  }

  "Who may submit a use case's form."
  enum FormAccess {
    PUBLIC
    AUTHENTICATED
  }

  "An immutable form submission, pinned to the form version it was validated against."
  type FormSubmission {
    id: ID!
    useCaseId: ID!
    "The use case it was submitted to (archived ones included)."
    useCase: FormUseCase
    formDefinitionId: ID!
    "The form definition of its version (archived ones included)."
    formDefinition: FormDefinition
    formVersion: Int!
    "The stored payload (file references carry file_id); redacted values read \\"[redacted]\\"."
    payload: JSON!
    municipality: String
    "The submitting user's subject; null for an anonymous submission."
    submittedBy: String
    createdAt: DateTime!
    redactedAt: DateTime
    "The status of the latest hydration attempt."
    hydrationStatus: FormHydrationStatus!
    hydrationAttempts: Int!
    "The model of the object the submission created (latest successful attempt)."
    hydratedModel: String
    "The id of that object, in its model (a target plugin's own id)."
    hydratedObjectId: ID
  }

  "A use case: a form definition turned into objects of one hydration target."
  type FormUseCase {
    id: ID!
    name: String!
    "The pinned version of the form; null: the latest."
    formVersion: Int
    "The target's model path (e.g. occurrences.Occurrence)."
    targetModel: String!
    access: FormAccess!
    active: Boolean!
    "Whether it was archived (it takes no more submissions)."
    archived: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  "A form definition: a Form.io schema under a name, with numbered versions."
  type FormDefinition {
    id: ID!
    name: String!
    description: String!
    latestVersion: Int!
    "Whether it was archived (its versions stay readable)."
    archived: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  "Which submissions a list holds."
  input FormSubmissionFilter {
    useCaseId: ID
    "The status of the latest hydration attempt."
    hydrationStatus: FormHydrationStatus
    "Created at or after this."
    createdAfter: DateTime
    "Created before this."
    createdBefore: DateTime
  }

  "A submission in a page of submissions."
  type FormSubmissionEdge {
    node: FormSubmission!
    cursor: String!
  }

  "A page of submissions, newest first."
  type FormSubmissionConnection {
    edges: [FormSubmissionEdge!]!
    pageInfo: PageInfo!
    "The submissions of the filter."
    totalCount: Int!
  }

  extend type Query {
    "Form submissions of the tenant, newest first."
    formSubmissions(filter: FormSubmissionFilter, first: Int, after: String, last: Int, before: String): FormSubmissionConnection!
    "One submission; null when there is none."
    formSubmission(id: ID!): FormSubmission
  }
`;

interface FilterInput {
  useCaseId?: string | null;
  hydrationStatus?: 'HYDRATED' | 'FAILED' | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
}

function date(value: Date | null | undefined, name: string): Date | undefined {
  if (value === null || value === undefined) return undefined;
  if (Number.isNaN(value.getTime())) throw badInput(`${name} is not a date`);
  return value;
}

function filterOf(input: FilterInput | null | undefined): SubmissionFilter {
  const f = input ?? {};
  if (f.useCaseId && !isUuid(f.useCaseId)) throw badInput('useCaseId is not a valid use case id');
  return {
    useCaseId: f.useCaseId ?? undefined,
    hydrationStatus: f.hydrationStatus ? (f.hydrationStatus.toLowerCase() as 'hydrated' | 'failed') : undefined,
    from: date(f.createdAfter, 'createdAfter'),
    to: date(f.createdBefore, 'createdBefore'),
  };
}

const isSeq = (key: unknown) => typeof key === 'string' && /^\d{1,18}$/.test(key);

export function resolvers(submissions: AdminSubmissionsService) {
  // One pair of loaders per request: a page's use cases and definitions in one query each.
  const loaders = new WeakMap<Request, { useCases: DataLoader<string, UseCaseRow | null>; definitions: DataLoader<string, DefinitionRow | null> }>();
  function loadersOf(context: GraphqlContext, tenantId: string) {
    let pair = loaders.get(context.request);
    if (!pair) {
      pair = {
        useCases: new DataLoader((ids: readonly string[]) => submissions.useCasesOf(tenantId, ids)),
        definitions: new DataLoader((ids: readonly string[]) => submissions.definitionsOf(tenantId, ids)),
      };
      loaders.set(context.request, pair);
    }
    return pair;
  }

  return {
    Query: {
      formSubmissions(_: unknown, args: ConnectionArgs & { filter?: FilterInput | null }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        const filter = filterOf(args.filter);
        return keysetConnection(args, {
          keyOf: (row: SubmissionRow) => String(row.seq),
          validKey: isSeq,
          fetch: (page) => submissions.page(tenantId, filter, page),
          count: () => submissions.count(tenantId, filter),
        });
      },
      formSubmission(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        return isUuid(args.id) ? submissions.find(tenantId, args.id) : null;
      },
    },
    FormSubmission: {
      useCaseId: (row: SubmissionRow) => row.use_case_id,
      useCase: (row: SubmissionRow, _: unknown, context: GraphqlContext) => loadersOf(context, requireAdmin(context)).useCases.load(row.use_case_id),
      formDefinitionId: (row: SubmissionRow) => row.definition_id,
      formDefinition: (row: SubmissionRow, _: unknown, context: GraphqlContext) =>
        loadersOf(context, requireAdmin(context)).definitions.load(row.definition_id),
      formVersion: (row: SubmissionRow) => row.form_version,
      payload: (row: SubmissionRow) => row.payload_json,
      submittedBy: (row: SubmissionRow) => row.submitted_by,
      createdAt: (row: SubmissionRow) => row.created_at,
      redactedAt: (row: SubmissionRow) => row.redacted_at,
      hydrationStatus: (row: SubmissionRow) => (row.hydration_status ?? 'failed').toUpperCase(),
      hydrationAttempts: (row: SubmissionRow) => row.attempts ?? 0,
      hydratedModel: (row: SubmissionRow) => row.target_model,
      hydratedObjectId: (row: SubmissionRow) => row.object_id,
    },
    FormUseCase: {
      formVersion: (row: UseCaseRow) => row.form_version,
      targetModel: (row: UseCaseRow) => row.target_model,
      access: (row: UseCaseRow) => row.access.toUpperCase(),
      archived: (row: UseCaseRow) => row.deleted_at !== null,
      createdAt: (row: UseCaseRow) => row.created_at,
      updatedAt: (row: UseCaseRow) => row.updated_at,
    },
    FormDefinition: {
      latestVersion: (row: DefinitionRow) => row.latest_version,
      archived: (row: DefinitionRow) => row.deleted_at !== null,
      createdAt: (row: DefinitionRow) => row.created_at,
      updatedAt: (row: DefinitionRow) => row.updated_at,
    },
  };
}
