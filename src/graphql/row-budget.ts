/**
 * The row budget: how many rows one GraphQL operation may ask the store for.
 *
 * Armor's cost counts fields, not the rows behind them: 20 aliases of `memberPage(limit: 1000)` is
 * a cheap document that reads 20,000 rows. Each root field that returns a list declares, next to
 * its definition, the most rows it can read from its arguments (`rowsRead`); an operation whose
 * fields add up to more than the budget is refused before anything runs. Limits given as variables
 * count as their values, so the sum is taken per request (after variable coercion); a document
 * whose list fields take no variables has one sum, computed once.
 *
 * Fields of the same response key are merged by GraphQL and run once, so they count once; fragments
 * are walked once each (memoized), so the fragment bomb costs its size. Only root fields carry
 * weights: no object type has a list field that reads the store per parent (checked at start).
 */
import {
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** The most rows a field can read, from its coerced arguments. */
export type RowsRead = (args: Record<string, unknown>) => number;

/** `extensions` for a root list field: `t.field({ ..., extensions: rowsRead(a => a.limit ?? 20) })`. */
export const rowsRead = (weight: RowsRead) => ({ rowsRead: weight });

/** A field's declared weight, if it has one. */
// biome-ignore lint/suspicious/noExplicitAny: any field of the schema
const weightOf = (field: GraphQLField<any, any> | undefined): RowsRead | undefined => field?.extensions?.rowsRead as RowsRead | undefined;

/** Rows an operation may read, as a function of its raw variables: `null` when the variables do not coerce (execution refuses them). */
export type OperationRows = (variables: Record<string, unknown> | undefined) => number | null;

/** The root fields of `selectionSet` by response key, fragments spread in (each walked once). */
function rootFields(document: DocumentNode, selectionSet: SelectionSetNode): Map<string, FieldNode> {
  const fragments = new Map(document.definitions.flatMap(d => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const fields = new Map<string, FieldNode>();
  const walked = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (!fields.has(key)) fields.set(key, selection);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet);
      } else if (!walked.has(selection.name.value)) {
        walked.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(selectionSet);
  return fields;
}

/** The operation's row count as a function of its variables (validated documents only). */
export function operationRows(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): OperationRows {
  const operation = getOperationAST(document, operationName ?? undefined);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return () => 0;
  const rootFieldDefs = root.getFields();
  const weighted = [...rootFields(document, operation.selectionSet).values()].flatMap(node => {
    const field = rootFieldDefs[node.name.value];
    const weight = weightOf(field);
    return field && weight ? [{ field, node, weight }] : [];
  });
  if (weighted.length === 0) return () => 0;
  const sum = (variables: Record<string, unknown>) =>
    weighted.reduce((total, { field, node, weight }) => total + weight(getArgumentValues(field, node, variables)), 0);
  if (!usesVariables(operation)) {
    const rows = sum({});
    return () => rows;
  }
  return raw => {
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], raw ?? {}, { maxErrors: 1 });
    if (coerced.errors) return null;
    try {
      return sum(coerced.coerced);
    } catch {
      return null;
    }
  };
}

const usesVariables = (operation: OperationDefinitionNode) => (operation.variableDefinitions?.length ?? 0) > 0;

/**
 * Start-up check, so a new list cannot skip the budget: every query field returning a list (or an
 * object holding one) declares its weight, and only root fields do: a weighted field on an object
 * type would be read once per parent, which the sum above does not multiply.
 */
export function assertRowWeights(schema: GraphQLSchema): void {
  const query = schema.getQueryType();
  const roots = new Set<unknown>([query, schema.getMutationType(), schema.getSubscriptionType()]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (roots.has(type) || !isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields()))
      if (weightOf(field)) throw new Error(`${type.name}.${field.name}: rowsRead belongs on root fields only.`);
  }
  for (const field of Object.values(query?.getFields() ?? {})) {
    const named = getNamedType(field.type);
    const listy =
      isListType(getNullableType(field.type)) ||
      (isObjectType(named) && Object.values(named.getFields()).some(f => isListType(getNullableType(f.type))));
    if (listy && !weightOf(field)) throw new Error(`Query.${field.name} returns a list: declare the rows it may read (extensions: rowsRead(...)).`);
  }
}

/** A page's weight: its `limit` (the default when absent), at most `max` (a larger one is refused by the field itself). */
export const pageRows = (bounds: { default: number; max: number }) =>
  rowsRead(args => {
    const limit = args.limit;
    return typeof limit === 'number' && limit >= 1 ? Math.min(limit, bounds.max) : bounds.default;
  });

/** A list without pages, or a whole list: as many rows as it may hold before it refuses (`boundedList`). */
export const wholeListRows = (max: number) => rowsRead(() => max);
