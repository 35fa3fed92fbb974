import { type BucketDecl, type BucketOptions, bucketIR } from './bucket-builder.js';
import type { Draft } from './draft.js';
import type { SchemaIR } from './ir.js';
import { type InlineTable, ResourceDraft, type ResourceBuilder } from './resource-builder.js';
import { SchemaValidationError, formatPath, issueAt, type SchemaIssue } from './schema-validation-error.js';
import { TableDraft, type TableBuilder } from './table-builder.js';
import { inspectSchemaIR } from './validate.js';

// The builders are mutable, so a callback may return the chain or nothing at all.
export type TableDefinition = (table: TableBuilder) => TableBuilder<any> | void;
export type ResourceDefinition<Tables extends string> = (resource: ResourceBuilder<Tables>) => ResourceBuilder<Tables> | void;

export interface SchemaDefinition<Tables extends string> {
  tables?: Record<Tables, TableDefinition>;
  /** NoInfer: table names come from `tables` alone, so a typo in shares() is an error, not a new name. */
  resources?: Record<string, ResourceDefinition<NoInfer<Tables>>>;
  /** User buckets: each user's own files (docs/api.md §13). Resource buckets: `r.files(...)`. */
  files?: Record<string, BucketOptions>;
}

/**
 * Compiles an app schema to its IR and validates it the way the server will, so authors see every
 * problem when the schema is defined rather than when it is deployed. Throws SchemaValidationError.
 */
export function defineSchema<const Tables extends string = never>(definition: SchemaDefinition<Tables>): SchemaIR {
  const problems: SchemaIssue[] = [];
  const inline: InlineTable[] = [];
  const buckets: BucketDecl[] = [];
  const compiled = compileSchema(definition, problems, inline, buckets);
  const { ir, issues } = inspectSchemaIR(compiled);
  const all = [...problems, ...issues.map(issue => atBucketDefinition(atInlineDefinition(issue, inline), buckets))];
  if (all.length > 0) throw new SchemaValidationError(all);
  return ir;
}

/** The IR before validation: inline owned tables are placed under `tables`, named as written. */
function compileSchema(definition: SchemaDefinition<string>, problems: SchemaIssue[], inline: InlineTable[], buckets: BucketDecl[]) {
  const tables: Record<string, unknown> = {};
  const resources: Record<string, unknown> = {};
  for (const [name, define] of Object.entries(definition.tables ?? {})) {
    const draft = new TableDraft(['tables', name], problems);
    if (runDefinition(define, draft, ['tables', name], problems)) tables[name] = draft.toIR();
  }
  const topLevel = new Set(Object.keys(definition.tables ?? {}));
  for (const [name, define] of Object.entries(definition.resources ?? {})) {
    const draft = new ResourceDraft(name, topLevel, inline, ['resources', name], problems, buckets);
    if (runDefinition(define, draft, ['resources', name], problems)) resources[name] = draft.toIR();
  }
  for (const { name, table } of inline) tables[name] = table;
  const files: Record<string, unknown> = {};
  for (const [name, options] of Object.entries(definition.files ?? {})) {
    if (buckets.some(b => b.name === name))
      problems.push(
        issueAt(['files', name], `bucket ${JSON.stringify(name)} is also declared on a resource type; bucket names are shared by the whole schema`),
      );
    else files[name] = bucketIR(options, null);
  }
  for (const { name, bucket } of buckets) files[name] = bucket;
  return { version: 1, tables, resources, ...(Object.keys(files).length ? { buckets: files } : {}) };
}

/** An issue in a resource type's bucket points where the author wrote it (`resources.album.files.photos`). */
function atBucketDefinition(issue: SchemaIssue, buckets: BucketDecl[]): SchemaIssue {
  for (const { name, path } of buckets) {
    const prefix = formatPath(['buckets', name]);
    const rest = issue.path.slice(prefix.length);
    if (issue.path.startsWith(prefix) && (rest === '' || rest.startsWith('.') || rest.startsWith('[')))
      return { ...issue, path: formatPath(path) + rest };
  }
  return issue;
}

/** An issue in an inline table points where the author wrote it (`resources.members.owns[0]...`), not at `tables.<name>`. */
function atInlineDefinition(issue: SchemaIssue, inline: InlineTable[]): SchemaIssue {
  for (const { name, path } of inline) {
    const prefix = formatPath(['tables', name]);
    const rest = issue.path.slice(prefix.length);
    if (issue.path.startsWith(prefix) && (rest === '' || rest.startsWith('.') || rest.startsWith('['))) {
      return { ...issue, path: formatPath(path) + rest };
    }
  }
  return issue;
}

function runDefinition(define: unknown, draft: Draft, path: string[], problems: SchemaIssue[]): boolean {
  if (typeof define !== 'function') {
    problems.push(issueAt(path, `expected a function such as t => t.text('name'), got ${typeof define}`));
    return false;
  }
  define(draft.builder());
  return true;
}
