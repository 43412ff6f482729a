// The schema style every plugin's GraphQL follows (docs/graphql.md, "Schema
// style"), as a check over a built schema: `schemaStyleViolations(schema)`
// lists each place that breaks a rule, as `Type.field: what is wrong`. The
// platform's test runs it over the whole introspected schema; a partner runs
// it over a schema with its plugin in.
import type { GraphQLArgument, GraphQLField, GraphQLInputField, GraphQLNamedType, GraphQLSchema, GraphQLType } from 'graphql';
import { lazyGraphql } from './graphql-js.ts';

const getNamedType = lazyGraphql('getNamedType');
const isEnumType = lazyGraphql('isEnumType');
const isInputObjectType = lazyGraphql('isInputObjectType');
const isInterfaceType = lazyGraphql('isInterfaceType');
const isListType = lazyGraphql('isListType');
const isNonNullType = lazyGraphql('isNonNullType');
const isObjectType = lazyGraphql('isObjectType');
const isUnionType = lazyGraphql('isUnionType');

export interface SchemaStyleOptions {
  /**
   * `Type.field` names of `…Id` fields that may stand without their object
   * (the id of something the graph does not hold, such as a subject of an
   * identity provider); each needs a reason where it is listed.
   */
  bareReferences?: string[];
}

const PASCAL = /^[A-Z][A-Za-z0-9]*$/;
const CAMEL = /^[a-z][A-Za-z0-9]*$/;
const UPPER = /^[A-Z][A-Z0-9_]*$/;
const ABBREVIATIONS = new Set(['doc', 'docs', 'msg', 'msgs', 'cnt', 'num', 'ts', 'desc', 'cfg', 'src', 'dst', 'tmpl']);
const DATE_BOUND = /^(from|to|since|until|.+(From|To|Since|Until))$/;
const CONNECTION_ARGS = new Set(['first', 'after', 'last', 'before', 'filter']);

function words(name: string): string[] {
  return name.split(/(?=[A-Z])/).map((word) => word.toLowerCase());
}

function isIdType(type: GraphQLType): boolean {
  return getNamedType(type).name === 'ID';
}

function isComposite(type: GraphQLNamedType): boolean {
  return isObjectType(type) || isInterfaceType(type) || isUnionType(type);
}

function referenceStem(name: string): string | undefined {
  const match = /^(.+)Ids?$/.exec(name);
  return match ? match[1] : undefined;
}

function checkName(problems: string[], where: string, name: string, kind: 'field' | 'argument' | 'input field') {
  if (!CAMEL.test(name)) problems.push(`${where}: a ${kind} name is camelCase`);
  const abbreviated = words(name).find((word) => ABBREVIATIONS.has(word));
  if (abbreviated) problems.push(`${where}: "${abbreviated}" is an abbreviation; spell the word out`);
}

function checkIdAndDate(problems: string[], where: string, name: string, type: GraphQLType) {
  if ((name === 'id' || referenceStem(name)) && !isIdType(type)) problems.push(`${where}: an id is of type ID`);
  if (getNamedType(type).name === 'DateTime' && DATE_BOUND.test(name)) {
    problems.push(`${where}: a date bound is named …After or …Before (createdAfter, createdBefore)`);
  }
}

function checkStatus(problems: string[], where: string, name: string, type: GraphQLType) {
  if ((name === 'status' || name.endsWith('Status')) && !isEnumType(getNamedType(type))) {
    problems.push(`${where}: a status is an enum`);
  }
}

function checkInput(problems: string[], where: string, input: GraphQLArgument | GraphQLInputField, kind: 'argument' | 'input field') {
  checkName(problems, where, input.name, kind);
  checkIdAndDate(problems, where, input.name, input.type);
  checkStatus(problems, where, input.name, input.type);
  if (input.name === 'tenant' || input.name === 'tenantId') {
    problems.push(`${where}: the tenant comes from X-Tenant-ID (or the WebSocket's connection parameters), not an argument`);
  }
}

function unwrapList(type: GraphQLType): GraphQLType | undefined {
  const nullable = isNonNullType(type) ? type.ofType : type;
  return isListType(nullable) ? nullable.ofType : undefined;
}

function checkConnectionType(problems: string[], schema: GraphQLSchema, name: string) {
  const connection = schema.getType(name);
  if (!isObjectType(connection)) return;
  const fields = connection.getFields();
  const node = name.slice(0, -'Connection'.length);
  const edgeItem = fields.edges && unwrapList(fields.edges.type);
  if (!edgeItem || !isNonNullType(fields.edges.type) || !isNonNullType(edgeItem) || getNamedType(edgeItem).name !== `${node}Edge`) {
    problems.push(`${name}.edges: [${node}Edge!]!`);
  }
  if (!fields.pageInfo || String(fields.pageInfo.type) !== 'PageInfo!') problems.push(`${name}.pageInfo: PageInfo!`);
  if (!fields.totalCount || String(fields.totalCount.type) !== 'Int!') problems.push(`${name}.totalCount: Int!`);
  const edge = schema.getType(`${node}Edge`);
  if (isObjectType(edge)) {
    const edgeFields = edge.getFields();
    if (!edgeFields.node || !isNonNullType(edgeFields.node.type)) problems.push(`${node}Edge.node: non-null`);
    if (!edgeFields.cursor || String(edgeFields.cursor.type) !== 'String!') problems.push(`${node}Edge.cursor: String!`);
  }
}

function checkConnectionField(problems: string[], where: string, field: GraphQLField<unknown, unknown>) {
  const named = getNamedType(field.type).name;
  const node = named.slice(0, -'Connection'.length);
  if (!isNonNullType(field.type)) problems.push(`${where}: a connection is non-null`);
  const args = new Map(field.args.map((arg) => [arg.name, arg]));
  for (const [name, type] of [['first', 'Int'], ['after', 'String'], ['last', 'Int'], ['before', 'String']]) {
    if (String(args.get(name)?.type) !== type) problems.push(`${where}: takes ${name}: ${type}`);
  }
  for (const arg of field.args) {
    if (!CONNECTION_ARGS.has(arg.name)) problems.push(`${where}(${arg.name}): a list takes its conditions in filter: ${node}Filter`);
  }
  const filter = args.get('filter');
  if (filter && getNamedType(filter.type).name !== `${node}Filter`) problems.push(`${where}(filter): of type ${node}Filter`);
}

function checkObjectField(
  problems: string[], typeName: string, field: GraphQLField<unknown, unknown>, fields: Record<string, GraphQLField<unknown, unknown>>, bare: Set<string>,
) {
  const where = `${typeName}.${field.name}`;
  checkName(problems, where, field.name, 'field');
  checkIdAndDate(problems, where, field.name, field.type);
  checkStatus(problems, where, field.name, field.type);
  if (field.name.endsWith('At') && getNamedType(field.type).name !== 'DateTime') problems.push(`${where}: a …At field is a DateTime`);
  const stem = referenceStem(field.name);
  if (stem && !bare.has(where)) {
    const objectName = field.name.endsWith('Ids') ? `${stem}s` : stem;
    const sibling = fields[objectName];
    if (!sibling || !isComposite(getNamedType(sibling.type))) {
      problems.push(`${where}: a reference is an object (${objectName}) beside its id`);
    }
  }
  if (getNamedType(field.type).name.endsWith('Connection')) checkConnectionField(problems, where, field);
  for (const arg of field.args) checkInput(problems, `${where}(${arg.name})`, arg, 'argument');
}

/** Every place the schema breaks the style, as `Type.field: rule`; empty when it follows it. */
export function schemaStyleViolations(schema: GraphQLSchema, options: SchemaStyleOptions = {}): string[] {
  const problems: string[] = [];
  const bare = new Set(options.bareReferences ?? []);
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (!PASCAL.test(type.name)) problems.push(`${type.name}: a type name is PascalCase`);
    if (isEnumType(type)) {
      for (const value of type.getValues()) {
        if (!UPPER.test(value.name)) problems.push(`${type.name}.${value.name}: an enum value is UPPER_CASE`);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) checkInput(problems, `${type.name}.${field.name}`, field, 'input field');
    } else if (isObjectType(type) || isInterfaceType(type)) {
      const fields = type.getFields();
      for (const field of Object.values(fields)) checkObjectField(problems, type.name, field, fields, bare);
      if (type.name.endsWith('Connection')) checkConnectionType(problems, schema, type.name);
    }
  }
  return problems.sort();
}
