// The whole schema (default manifest: every plugin), introspected as a
// consumer does, follows the schema style of docs/graphql.md: ids ID,
// references objects, enums upper-case, statuses enums, one <Type>Filter per
// list, date bounds …After/…Before, Relay connections both ways with
// totalCount, no tenant arguments. The check itself is the SDK's
// schemaStyleViolations; a few cases show that it catches each rule.
import t from 'tap';
import { buildClientSchema, buildSchema, getIntrospectionQuery } from 'graphql';
import { schemaStyleViolations } from '../../core/graphql/schema-style.ts';
import { startTestPlatform } from '../harness.ts';

/** `…Id` fields whose object the graph does not hold, each with why. */
const BARE_REFERENCES: string[] = [
  // A dataset's producer is a source stream, transform, pipeline, sandbox run or registry entry (producerKind says which).
  'Dataset.producerId',
  // The operationId of an OpenAPI operation inside an imported spec's document: operations are not objects of the graph.
  'CallableFunction.operationId',
  // The id of whatever object a form's hydration target made: any plugin's model (hydratedModel), not one type of the graph.
  'FormSubmission.hydratedObjectId',
  // A step's id within the definition (a workflow's or a pipeline version's) the run ran: steps are JSON of their definition, not objects.
  'ExecutionStep.stepId',
  'PipelineStepResult.stepId',
  // The job system's id of a sync run's job: jobs are not in the graph.
  'SyncRun.workflowId',
  // An external orchestrator's own run id (free text sent to /execute): nothing of the platform.
  'TransformRun.orchestratorRunId',
  // The request's own tenant (X-Tenant-ID), which Query.tenant reads.
  'Citation.tenantId',
  // A context of the kind executionContextType names (a chat session, a workflow execution, a function call): no one type.
  'Citation.executionContextId',
];

t.test('the introspected schema follows the style', async (t) => {
  const tp = await startTestPlatform(t);
  const response = await tp.request({ method: 'POST', url: '/graphql', payload: { query: getIntrospectionQuery() } });
  t.equal(response.status, 200);
  const schema = buildClientSchema(response.body.data);
  t.same(schemaStyleViolations(schema, { bareReferences: BARE_REFERENCES }), []);
});

t.test('each rule catches what it names', async (t) => {
  const schema = buildSchema(/* GraphQL */ `
    scalar DateTime
    type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    enum Color { red GREEN }
    input ThingFilter { from: DateTime createdAfter: DateTime ownerId: String }
    type Owner { id: ID! }
    type Thing { id: Int! ownerId: ID! status: String! docName: String createdAt: String owner_name: String }
    type ThingEdge { node: Thing! cursor: String! }
    type ThingConnection { edges: [ThingEdge!]! pageInfo: PageInfo! }
    type Query {
      things(filter: ThingFilter, kind: String, first: Int, after: String): ThingConnection!
      thing(id: ID!, tenant: String): Thing
      color: Color
    }
  `);
  t.same(schemaStyleViolations(schema), [
    'Color.red: an enum value is UPPER_CASE',
    'Query.thing(tenant): the tenant comes from X-Tenant-ID (or the WebSocket\'s connection parameters), not an argument',
    'Query.things(kind): a list takes its conditions in filter: ThingFilter',
    'Query.things: takes before: String',
    'Query.things: takes last: Int',
    'Thing.createdAt: a …At field is a DateTime',
    'Thing.docName: "doc" is an abbreviation; spell the word out',
    'Thing.id: an id is of type ID',
    'Thing.ownerId: a reference is an object (owner) beside its id',
    'Thing.owner_name: a field name is camelCase',
    'Thing.status: a status is an enum',
    'ThingConnection.totalCount: Int!',
    'ThingFilter.from: a date bound is named …After or …Before (createdAfter, createdBefore)',
    'ThingFilter.ownerId: an id is of type ID',
  ]);
  t.same(schemaStyleViolations(schema, { bareReferences: ['Thing.ownerId'] }).filter((line) => line.startsWith('Thing.ownerId')), [], 'a listed bare reference passes');
});
