import type { SchemaIR } from './ir.js';
import { ResourceDraft, type ResourceBuilder } from './resource-builder.js';
import { SchemaValidationError, issueAt, type SchemaIssue } from './schema-validation-error.js';
import { TableDraft, type TableBuilder } from './table-builder.js';
import { inspectSchemaIR } from './validate.js';

// The builders are mutable, so a callback may return the chain or nothing at all.
export type TableDefinition = (table: TableBuilder) => TableBuilder<any> | void;
export type ResourceDefinition<Tables extends string> = (resource: ResourceBuilder<Tables>) => ResourceBuilder<Tables> | void;

export interface SchemaDefinition<Tables extends string> {
  tables?: Record<Tables, TableDefinition>;
  /** NoInfer: table names come from `tables` alone, so a typo in shares() is an error, not a new name. */
  resources?: Record<string, ResourceDefinition<NoInfer<Tables>>>;
}

/**
 * Compiles an app schema to its IR and validates it the way the server will, so authors see every
 * problem when the schema is defined rather than when it is deployed. Throws SchemaValidationError.
 */
export function defineSchema<const Tables extends string = never>(definition: SchemaDefinition<Tables>): SchemaIR {
  const problems: SchemaIssue[] = [];
  const compiled = compileSchema(definition, problems);
  const { ir, issues } = inspectSchemaIR(compiled);
  const all = [...problems, ...issues];
  if (all.length > 0) throw new SchemaValidationError(all);
  return ir;
}

function compileSchema(definition: SchemaDefinition<string>, problems: SchemaIssue[]): SchemaIR {
  const ir: SchemaIR = { version: 1, tables: {}, resources: {} };
  for (const [name, define] of Object.entries(definition.tables ?? {})) {
    const draft = new TableDraft(['tables', name], problems);
    if (runDefinition(define, draft, ['tables', name], problems)) ir.tables[name] = draft.toIR();
  }
  for (const [name, define] of Object.entries(definition.resources ?? {})) {
    const draft = new ResourceDraft(['resources', name], problems);
    if (runDefinition(define, draft, ['resources', name], problems)) ir.resources[name] = draft.toIR();
  }
  return ir;
}

function runDefinition(define: unknown, draft: object, path: string[], problems: SchemaIssue[]): boolean {
  if (typeof define !== 'function') {
    problems.push(issueAt(path, `expected a function such as t => t.text('name'), got ${typeof define}`));
    return false;
  }
  define(draft);
  return true;
}
