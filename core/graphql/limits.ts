// Limits on what one GraphQL request may ask for, checked before anything
// runs (a yoga plugin): the document's size in tokens while it is parsed
// (GRAPHQL_MAX_TOKENS: graphql-js stops lexing past it, which also bounds the
// work of the standard validation rules), then, as a validation rule, each
// operation's depth (GRAPHQL_MAX_DEPTH), aliases (GRAPHQL_MAX_ALIASES) and
// cost (GRAPHQL_MAX_COST), measured as query-measure.ts describes. A request
// over a limit is a 400 whose error names the limit and its code; no resolver
// runs. The rule does not depend on the variables, so yoga's validation cache
// stays valid. Introspection passes: the standard introspection query is far
// inside every default, while introspection cycles (`fields { type { fields`…)
// are priced. The route itself caps the body at 1 MB.
//
// Hand-written rather than @escape.tech/graphql-armor: a few dozen lines with
// no new dependency, limits that follow our connections' `first`, and armor's
// depth and cost plugins skip introspection entirely by default.
import type { GraphQLError, FragmentDefinitionNode, ValidationContext, ASTVisitor } from 'graphql';
import { graphqlJs } from './graphql-js.ts';
import type { Plugin } from 'graphql-yoga';
import { ConfigError } from '../config.ts';
import { measureOperation } from './query-measure.ts';

export interface GraphqlLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
  maxTokens: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphqlLimits = { maxDepth: 12, maxAliases: 30, maxCost: 5000, maxTokens: 2000 };

const SETTINGS: Record<keyof GraphqlLimits, string> = {
  maxDepth: 'GRAPHQL_MAX_DEPTH',
  maxAliases: 'GRAPHQL_MAX_ALIASES',
  maxCost: 'GRAPHQL_MAX_COST',
  maxTokens: 'GRAPHQL_MAX_TOKENS',
};

export function graphqlLimitsFrom(env: Record<string, string | undefined>): GraphqlLimits {
  const limits = { ...DEFAULT_GRAPHQL_LIMITS };
  for (const [key, name] of Object.entries(SETTINGS) as [keyof GraphqlLimits, string][]) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value <= 0) throw new ConfigError(`${name} must be a positive integer, got "${raw}"`);
    limits[key] = value;
  }
  return limits;
}

const LIMIT_CODES = new Set(['QUERY_TOO_LARGE', 'QUERY_TOO_DEEP', 'TOO_MANY_ALIASES', 'QUERY_TOO_COSTLY']);

function limitError(message: string, code: string, limit: number): GraphQLError {
  return new (graphqlJs().GraphQLError)(message, { extensions: { code, limit } });
}

/**
 * A refusal is a 400 whatever the Accept header: yoga answers parse and
 * validation errors to `Accept: application/json` with 200 (GraphQL over
 * HTTP's legacy rule, `http.spec`), so the limit errors lose that flag just
 * before the response is made.
 */
function refusedWith400(result: unknown): void {
  const errors = (result as { errors?: readonly GraphQLError[] } | null)?.errors;
  for (const error of errors ?? []) {
    if (!LIMIT_CODES.has(error.extensions?.code as string)) continue;
    (error.extensions as Record<string, unknown>).http = { status: 400, spec: false };
  }
}

function limitsRule(limits: GraphqlLimits) {
  return function QueryLimits(context: ValidationContext): ASTVisitor {
    return {
      Document(document) {
        const fragments = new Map<string, FragmentDefinitionNode>();
        for (const definition of document.definitions) {
          if (definition.kind === graphqlJs().Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
        }
        for (const definition of document.definitions) {
          if (definition.kind !== graphqlJs().Kind.OPERATION_DEFINITION) continue;
          const measured = measureOperation(context.getSchema(), definition, fragments);
          const which = definition.name ? `Operation ${definition.name.value}` : 'The operation';
          if (measured.depth > limits.maxDepth) {
            context.reportError(limitError(`${which} is ${measured.depth} fields deep; the limit is ${limits.maxDepth}`, 'QUERY_TOO_DEEP', limits.maxDepth));
          }
          if (measured.aliases > limits.maxAliases) {
            context.reportError(limitError(`${which} has ${measured.aliases} aliases; the limit is ${limits.maxAliases}`, 'TOO_MANY_ALIASES', limits.maxAliases));
          }
          if (measured.cost > limits.maxCost) {
            context.reportError(limitError(
              `${which} costs ${measured.cost}; the limit is ${limits.maxCost} (each field counts 1, times the page size `
              + 'of the lists it is in: ask for smaller pages with first/limit, or fewer fields)',
              'QUERY_TOO_COSTLY', limits.maxCost,
            ));
          }
        }
        return false;
      },
    };
  };
}

// graphql-js 16 words it "Document contains more that N tokens" (sic).
const TOO_MANY_TOKENS = /Document contains more tha[nt] \d+ tokens/;

export function useQueryLimits(limits: GraphqlLimits): Plugin {
  const rule = limitsRule(limits);
  return {
    onParse({ setParseFn }) {
      setParseFn((source, options) => {
        try {
          return graphqlJs().parse(source, { ...options, maxTokens: limits.maxTokens });
        } catch (err) {
          if (err instanceof graphqlJs().GraphQLError && TOO_MANY_TOKENS.test(err.message)) {
            throw limitError(`The query document has more than ${limits.maxTokens} tokens`, 'QUERY_TOO_LARGE', limits.maxTokens);
          }
          throw err;
        }
      });
    },
    onValidate({ addValidationRule }) {
      addValidationRule(rule);
    },
    onResultProcess({ result }) {
      refusedWith400(result);
    },
  };
}
