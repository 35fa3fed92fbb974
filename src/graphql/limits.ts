/**
 * GraphQL cost limits: what a document may ask for before Gatehouse spends real work on it.
 *
 * The checks are GraphQL Armor's (maintained, memoized) and run in two places, both before any
 * expensive step:
 * 1. Parse time: a token limit (`maxTokensPlugin`) stops the lexer at token N+1, so an oversized
 *    document (20,000 aliases) costs O(limit), not O(body).
 * 2. Before graphql-js validation: depth, aliases, directives and cost run in a pass of their own
 *    (`checkDocumentLimits`) and, if any is exceeded, the request is answered with that result;
 *    the specified rules (OverlappingFieldsCanBeMerged walks every fragment spread) and
 *    graphql-jit's compilation (which inlines every spread: 2^16 copies for the fragment bomb)
 *    never see the document. Armor's own rules are added to the same validation pass as the
 *    specified rules by default, where a document listing its fragments before its operation
 *    would have them walked by every other rule first; hence the separate pass.
 *
 * Why Armor's algorithms are safe on the fragment bomb: each of its visitors memoizes a
 * fragment's depth/cost/alias count/directive count by name on first visit (`visitedFragments`),
 * so a fragment spread twice is counted twice numerically but walked once: linear in the document,
 * which the token limit bounds. `flattenFragments: true` makes a spread count as the fields it
 * contributes (response depth), so a stored operation using a fragment costs what it selects.
 * A fragment cycle terminates there too (the memo holds -1 while open) and is then refused by
 * graphql-js' NoFragmentCyclesRule.
 *
 * Every refusal is a 400 with a stable code in `extensions` ({ code, status, http.status }), and
 * carries an AppError as its original error so Gatehouse's maskError keeps the code.
 */
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { MaxTokensParserWLexer, maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import type { GraphQLArmorRejectCallback } from '@escape.tech/graphql-armor-types';
import {
  type ASTNode,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  NoSchemaIntrospectionCustomRule,
  type ValidationContext,
  type ValidationRule,
  validate,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { type OperationRows, operationRows } from './row-budget.js';
import { LRUCache } from 'lru-cache';
import { graphqlRefusal } from '../http/error-responses.js';
import { type CodeWithStatus, fail } from '../errors.js';

/** The limits, one named setting each. The stored REST operations fit them (test/api/graphql-limits.test.ts). */
export interface GraphQLLimits {
  /** Lexical tokens in one document (names, punctuation, values). Stops oversized bodies at parse. */
  maxTokens: number;
  /** Nesting of fields (fragments flattened): `me { owner { id } }` is 3. `__schema` is not counted. */
  maxDepth: number;
  /** Aliased fields in one operation, fragments expanded (`__typename` is free). */
  maxAliases: number;
  /** Directive uses in one operation, fragments expanded. */
  maxDirectives: number;
  /**
   * Armor's cost: 1 per scalar, 2 per object field, children weighted x1.5 per level, fragments
   * expanded (a spread repeated N times costs N times). The largest stored REST operation costs ~22.
   */
  maxCost: number;
  /**
   * Rows one operation may ask the store for: the sum of its list fields' `rowsRead` (a page's
   * `limit`, a whole list's 1000), limits given as variables counted at their values.
   */
  maxRows: number;
}

export const DEFAULT_GRAPHQL_LIMITS: Readonly<GraphQLLimits> = Object.freeze({
  maxTokens: 2000,
  maxDepth: 10,
  maxAliases: 20,
  maxDirectives: 20,
  maxCost: 5000,
  maxRows: 5000,
});

/** The stable codes of refusals (README "Errors"). */
export const LIMIT_CODES = {
  tokens: 'query_too_large',
  depth: 'query_too_deep',
  aliases: 'too_many_aliases',
  directives: 'too_many_directives',
  cost: 'query_too_complex',
  rows: 'too_many_rows',
  introspection: 'introspection_disabled',
} as const;

export interface LimitOptions {
  limits?: Partial<GraphQLLimits>;
  /** The row budget's check (`rowBudgetCheck`), shared with /graphql's fast path. */
  rowBudget: RowBudgetCheck;
  /** Refuse `__schema`/`__type` (production default; GRAPHQL_INTROSPECTION=1 turns it back on). */
  introspection: boolean;
  /** Hide "Did you mean …?" hints that would reveal the schema (production). */
  blockSuggestions: boolean;
}

const refusal = (code: CodeWithStatus<400>, message: string, nodes?: readonly ASTNode[]): GraphQLError => graphqlRefusal(fail(code, message), nodes);

const HINTS: Record<string, string> = {
  [LIMIT_CODES.tokens]: 'Send a smaller document.',
  [LIMIT_CODES.depth]: 'Select fewer nested levels.',
  [LIMIT_CODES.aliases]: 'Use fewer aliases; send separate requests.',
  [LIMIT_CODES.directives]: 'Use fewer directives.',
  [LIMIT_CODES.cost]: 'Select fewer fields or repeat fragments less.',
  [LIMIT_CODES.rows]: 'Ask for smaller pages (limit) or send separate requests.',
};

/** Armor says "Syntax Error: <what>"; keep <what> (it names the limit and the count) and add what to do. */
function describe(code: CodeWithStatus<400>, error: GraphQLError): string {
  const what = error.message
    .replace(/^Syntax Error: /, '')
    .replace(/Query Cost/, 'Query cost')
    .replace(/found (\d+)\.\d+/, 'found $1');
  return `${what} ${HINTS[code]}`;
}

/** Armor's onReject for validation rules: report our coded error (propagateOnRejection is off). */
const reportAs =
  (code: CodeWithStatus<400>): GraphQLArmorRejectCallback =>
  (context, error) =>
    context?.reportError(refusal(code, describe(code, error)));

function limitRules(limits: GraphQLLimits, introspection: boolean): ValidationRule[] {
  const common = { exposeLimits: true, propagateOnRejection: false };
  const rules: ValidationRule[] = [
    maxDepthRule({ ...common, n: limits.maxDepth, flattenFragments: true, ignoreIntrospection: true, onReject: [reportAs(LIMIT_CODES.depth)] }),
    maxAliasesRule({ ...common, n: limits.maxAliases, onReject: [reportAs(LIMIT_CODES.aliases)] }),
    maxDirectivesRule({ ...common, n: limits.maxDirectives, onReject: [reportAs(LIMIT_CODES.directives)] }),
    costLimitRule({ ...common, maxCost: limits.maxCost, flattenFragments: true, ignoreIntrospection: true, onReject: [reportAs(LIMIT_CODES.cost)] }),
  ] as unknown as ValidationRule[];
  if (!introspection) rules.push(noIntrospection);
  return rules;
}

/** graphql-js' NoSchemaIntrospectionCustomRule, its refusals carrying our code. */
const noIntrospection: ValidationRule = context =>
  NoSchemaIntrospectionCustomRule(
    Object.create(context, {
      reportError: {
        value: (error: GraphQLError) =>
          context.reportError(
            refusal(
              LIMIT_CODES.introspection,
              'Introspection is disabled on this server; the schema is published as schema/schema.graphql.',
              error.nodes,
            ),
          ),
      },
    }) as ValidationContext,
  );

function resolve(limits?: Partial<GraphQLLimits>): GraphQLLimits {
  return { ...DEFAULT_GRAPHQL_LIMITS, ...limits };
}

/** Parses with the token limit (what Yoga does); throws the coded refusal past `maxTokens`. */
export function parseWithLimits(source: string, limits?: Partial<GraphQLLimits>): DocumentNode {
  const { maxTokens } = resolve(limits);
  return new MaxTokensParserWLexer(source, { n: maxTokens, exposeLimits: true, onReject: [throwAs(LIMIT_CODES.tokens)] }).parseDocument();
}

/** The depth, alias, directive and cost checks (plus introspection when off) alone: [] when the document fits. */
export function checkDocumentLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  options: { limits?: Partial<GraphQLLimits>; introspection?: boolean } = {},
): readonly GraphQLError[] {
  return validate(schema, document, limitRules(resolve(options.limits), options.introspection ?? true));
}

/** The token limit's onReject runs inside the lexer: throwing our error there ends the parse. */
const throwAs =
  (code: CodeWithStatus<400>): GraphQLArmorRejectCallback =>
  (_context, error) => {
    throw refusal(code, describe(code, error));
  };

/**
 * The row budget's check, memoized per document and operation: the coded refusal when the
 * operation's list fields may read more than `maxRows` with these variables, else null. Variables
 * that do not coerce pass here: execution refuses them with its own message.
 */
export type RowBudgetCheck = (
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | undefined,
) => GraphQLError | null;

export function rowBudgetCheck(schema: GraphQLSchema, limits?: Partial<GraphQLLimits>): RowBudgetCheck {
  const { maxRows } = resolve(limits);
  const memo = new WeakMap<DocumentNode, Map<string, OperationRows>>();
  return (document, operationName, variables) => {
    let byName = memo.get(document);
    if (!byName) memo.set(document, (byName = new Map()));
    let rowsOf = byName.get(operationName ?? '');
    if (!rowsOf) byName.set(operationName ?? '', (rowsOf = operationRows(schema, document, operationName)));
    const rows = rowsOf(variables);
    if (rows === null || rows <= maxRows) return null;
    const code = LIMIT_CODES.rows;
    return refusal(code, `This operation may read up to ${rows} rows; the limit is ${maxRows}. ${HINTS[code]}`);
  };
}

/**
 * The Yoga plugins, in order: token limit at parse, the limit pass before validation, then (in
 * production) the suggestion mask. Put them before graphql-jit so nothing is compiled for a
 * refused document.
 */
export function graphqlLimitPlugins(options: LimitOptions): Plugin[] {
  const limits = resolve(options.limits);
  const { rowBudget } = options;
  const rules = limitRules(limits, options.introspection);
  // Yoga hands back the same DocumentNode for the same text (its parse cache), so each document is checked once.
  const checked = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  const limitPass: Plugin = {
    onValidate({ params, setResult }) {
      let errors = checked.get(params.documentAST);
      if (!errors) {
        errors = validate(params.schema, params.documentAST, rules);
        checked.set(params.documentAST, errors);
      }
      // A result set here replaces graphql-js validation for this document.
      if (errors.length) setResult([...errors]);
    },
  };
  // The row budget needs the variables: it runs once they are known, before execution.
  const rowPass: Plugin = {
    onExecute({ args, setResultAndStopExecution }) {
      const refused = rowBudget(args.document, args.operationName, args.variableValues ?? undefined);
      if (refused) setResultAndStopExecution({ errors: [refused] });
    },
  };
  const plugins: Plugin[] = [
    maxTokensPlugin({ n: limits.maxTokens, exposeLimits: true, onReject: [throwAs(LIMIT_CODES.tokens)] }) as Plugin,
    limitPass,
    rowPass,
  ];
  if (options.blockSuggestions) plugins.push(blockFieldSuggestionsPlugin() as Plugin, maskEnumSuggestions);
  return plugins;
}

/**
 * Armor masks `Did you mean "x"?`; graphql-js' validation also writes `Did you mean the enum value
 * "x"?` for a misspelt enum literal, which would list the enum's values.
 */
const ENUM_SUGGESTION = /\s*Did you mean the enum value .+\?/g;
const maskEnumSuggestions: Plugin = {
  onValidate:
    () =>
    ({ valid, result }) => {
      if (!valid) for (const error of result) error.message = error.message.replace(ENUM_SUGGESTION, '');
    },
};

/** Characters of document text Yoga's parse caches may hold (keys are whole documents). */
export const PARSE_CACHE_MAX_CHARS = 8 * 1024 * 1024;

/**
 * Yoga's parser and error caches, bounded by the text they hold: Yoga's default keeps 1024
 * documents whatever their size, so unique near-1 MiB documents (a long comment passes every
 * token limit) could pin a gigabyte. Validation results are keyed by the cached AST and go with it.
 */
export function boundedParseCache() {
  const cache = <T extends {}>() =>
    new LRUCache<string, T>({ max: 1024, maxSize: PARSE_CACHE_MAX_CHARS, sizeCalculation: (_value, key) => Math.max(1, key.length) });
  return { documentCache: cache<DocumentNode>(), errorCache: cache<object>() };
}
