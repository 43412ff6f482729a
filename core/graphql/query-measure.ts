// Measures an operation before it runs: its depth, its aliases and its cost,
// with fragments expanded (each fragment measured once per context, so a
// document that spreads fragments exponentially costs linear time here).
//
// Depth: nested field selections; a root field is depth 1. Introspection's
// `ofType` adds none (a chain of type wrappers with no fan-out), so the
// standard introspection query (depth 5 so counted) passes any sensible limit.
//
// Cost: every field counts 1 (`__typename` 0), times the sizes of the lists it
// is in. A list's size is its `first`/`last`/`limit`/`topK` argument: the
// literal given, else the variable's declared default, else VARIABLE_SIZE (the
// largest page any field accepts: the check runs once per document, before the
// variables are known); without the argument, the schema's default for it, else
// DEFAULT_LIST_SIZE. A connection's `first` sizes its `edges`. Introspection
// lists count once up to FREE_INTROSPECTION_LISTS nested on a path (types →
// fields → args, what the standard introspection query needs) and like any
// list beyond, which prices `fields { type { fields { … } } }` cycles.
//
// Aliases: every aliased field of the document, a fragment's at each spread
// (not multiplied by list sizes: the cost counts what runs per item).
import type {
  FieldNode, FragmentDefinitionNode, GraphQLCompositeType, GraphQLField, GraphQLNamedType,
  GraphQLSchema, OperationDefinitionNode, SelectionSetNode, ValueNode,
} from 'graphql';
import { MAX_PAGE } from './connection.ts';
import { graphqlJs, lazyGraphql } from './graphql-js.ts';

const getNamedType = lazyGraphql('getNamedType');
const getNullableType = lazyGraphql('getNullableType');
const isCompositeType = lazyGraphql('isCompositeType');
const isListType = lazyGraphql('isListType');
const isObjectType = lazyGraphql('isObjectType');

/** Size of a list without a size argument (the connections' default page). */
export const DEFAULT_LIST_SIZE = 20;
/** Size of a list whose size argument is a variable without a default. */
export const VARIABLE_SIZE = MAX_PAGE;
export const FREE_INTROSPECTION_LISTS = 3;
const SIZE_ARGUMENTS = ['first', 'last', 'limit', 'topK'];

export interface Measure {
  depth: number;
  aliases: number;
  /** Cost of one instance of the selection (multiplied by the caller). */
  cost: number;
}

interface Scope {
  /** Size of the `edges` of the connection this selection belongs to. */
  connectionSize?: number;
  /** Introspection lists entered on this path; undefined outside introspection. */
  introspectionLists?: number;
}

const ZERO: Measure = { depth: 0, aliases: 0, cost: 0 };

function combine(a: Measure, b: Measure): Measure {
  return { depth: Math.max(a.depth, b.depth), aliases: a.aliases + b.aliases, cost: a.cost + b.cost };
}

function isConnection(type: GraphQLNamedType): boolean {
  if (!isObjectType(type)) return false;
  const fields = type.getFields();
  return 'edges' in fields && 'pageInfo' in fields;
}

export function measureOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): Measure {
  const variableDefaults = new Map<string, ValueNode | undefined>();
  for (const definition of operation.variableDefinitions ?? []) variableDefaults.set(definition.variable.name.value, definition.defaultValue);
  const memo = new Map<string, Measure>();
  const visiting = new Set<string>();

  function intValue(value: ValueNode | undefined): number | undefined {
    if (value?.kind === graphqlJs().Kind.INT) return Math.max(0, Number.parseInt(value.value, 10));
    return undefined;
  }

  function sizeOf(node: FieldNode, definition: GraphQLField<unknown, unknown>): number | undefined {
    for (const name of SIZE_ARGUMENTS) {
      const argument = definition.args.find((arg) => arg.name === name);
      if (!argument) continue;
      const given = node.arguments?.find((arg) => arg.name.value === name);
      if (!given) {
        if (typeof argument.defaultValue === 'number') return argument.defaultValue;
        continue;
      }
      if (given.value.kind === graphqlJs().Kind.VARIABLE) return intValue(variableDefaults.get(given.value.name.value)) ?? VARIABLE_SIZE;
      return intValue(given.value) ?? DEFAULT_LIST_SIZE;
    }
    return undefined;
  }

  function fieldDefinition(parent: GraphQLCompositeType | undefined, name: string): GraphQLField<unknown, unknown> | undefined {
    if (name === '__schema' && parent === schema.getQueryType()) return graphqlJs().SchemaMetaFieldDef;
    if (name === '__type' && parent === schema.getQueryType()) return graphqlJs().TypeMetaFieldDef;
    if (!parent || !('getFields' in parent)) return undefined;
    return parent.getFields()[name];
  }

  function measureField(node: FieldNode, parent: GraphQLCompositeType | undefined, scope: Scope): Measure {
    const name = node.name.value;
    const alias = node.alias ? 1 : 0;
    if (name === '__typename') return { depth: 1, aliases: alias, cost: 0 };
    const definition = fieldDefinition(parent, name);
    // An unknown field is reported by the standard rules; count what can be counted.
    const named = definition ? getNamedType(definition.type) : undefined;
    const list = definition ? isListType(getNullableType(definition.type)) : false;
    const introspection = scope.introspectionLists !== undefined || name === '__schema' || name === '__type';

    let size = 1;
    const childScope: Scope = {};
    if (introspection) {
      const lists = (scope.introspectionLists ?? 0) + (list ? 1 : 0);
      childScope.introspectionLists = lists;
      if (list && lists > FREE_INTROSPECTION_LISTS) size = DEFAULT_LIST_SIZE;
    } else if (definition && named) {
      const given = sizeOf(node, definition);
      if (isConnection(named)) childScope.connectionSize = given ?? DEFAULT_LIST_SIZE;
      else if (list) size = given ?? (name === 'edges' && scope.connectionSize !== undefined ? scope.connectionSize : DEFAULT_LIST_SIZE);
    }
    const children = node.selectionSet
      ? measureSet(node.selectionSet, named && isCompositeType(named) ? named : undefined, childScope)
      : ZERO;
    const ownDepth = introspection && name === 'ofType' ? 0 : 1;
    return { depth: ownDepth + children.depth, aliases: alias + children.aliases, cost: 1 + size * children.cost };
  }

  function measureFragment(fragment: FragmentDefinitionNode, scope: Scope): Measure {
    const key = `${fragment.name.value}|${scope.connectionSize ?? ''}|${scope.introspectionLists ?? ''}`;
    const known = memo.get(key);
    if (known) return known;
    // A cycle is reported by NoFragmentCycles; it adds nothing here.
    if (visiting.has(key)) return ZERO;
    visiting.add(key);
    const type = schema.getType(fragment.typeCondition.name.value);
    const measured = measureSet(fragment.selectionSet, type && isCompositeType(type) ? type : undefined, scope);
    visiting.delete(key);
    memo.set(key, measured);
    return measured;
  }

  function measureSet(set: SelectionSetNode, parent: GraphQLCompositeType | undefined, scope: Scope): Measure {
    let total = ZERO;
    for (const selection of set.selections) {
      if (selection.kind === graphqlJs().Kind.FIELD) {
        total = combine(total, measureField(selection, parent, scope));
      } else if (selection.kind === graphqlJs().Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        total = combine(total, measureSet(selection.selectionSet, type && isCompositeType(type) ? type : undefined, scope));
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) total = combine(total, measureFragment(fragment, scope));
      }
    }
    return total;
  }

  const root = schema.getRootType(operation.operation) ?? undefined;
  return measureSet(operation.selectionSet, root, {});
}
