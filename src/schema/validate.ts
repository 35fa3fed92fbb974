import type { z } from 'zod';
import type { BucketIR, ResourceTypeIR, SchemaIR, TableIR } from './ir.js';
import { bucketShape, envelopeShape, type ParsedResourceType, resourceTypeShape, tableShape } from './ir-shape.js';
import {
  checkBucket,
  checkInlineOwner,
  checkResourceType,
  checkResourceTypeName,
  checkTable,
  checkTableName,
  type OwnerDeleteSources,
  resolveOwnerDelete,
} from './rules.js';
import { issueAt, SchemaValidationError, type PathSegment, type SchemaIssue } from './schema-validation-error.js';

/**
 * Validates untrusted JSON (a deployed schema) and returns it as a fresh, typed IR. Throws
 * SchemaValidationError listing every problem found, not just the first.
 */
export function validateSchemaIR(input: unknown): SchemaIR {
  const { ir, issues } = inspectSchemaIR(input);
  if (issues.length > 0) throw new SchemaValidationError(issues);
  return ir;
}

/**
 * The non-throwing core, shared with defineSchema (which adds its own builder problems). Each
 * table and resource type is parsed on its own so one broken node does not hide the others'
 * problems; `ir` holds only the nodes that parsed, and is meaningful only when `issues` is empty.
 */
export function inspectSchemaIR(input: unknown): { ir: SchemaIR; issues: SchemaIssue[] } {
  const ir: SchemaIR = { version: 1, tables: {}, resources: {} };
  if (!isPlainObject(input)) return { ir, issues: [issueAt([], 'expected a schema object { version, tables, resources }')] };

  const envelope = envelopeShape.safeParse(input, { error: describeTypeIssue });
  const issues = envelope.success ? [] : toSchemaIssues([], envelope.error);
  const rawTables = isPlainObject(input.tables) ? input.tables : {};
  const rawResources = isPlainObject(input.resources) ? input.resources : {};

  for (const [name, raw] of Object.entries(rawTables)) {
    issues.push(...checkTableName(name));
    const table = parseNode(tableShape, raw, ['tables', name], issues);
    if (table) {
      issues.push(...checkTable(name, table));
      ir.tables[name] = table;
    }
  }

  // Links are checked against every declared table name, parsed or not, so a table with a broken
  // column does not also make each resource that shares it report an "unknown table". Without a
  // tables object there is nothing to check them against.
  const tables = isPlainObject(input.tables)
    ? new Map(Object.entries(input.tables).map(([name, raw]) => [name, isPlainObject(raw) && typeof raw.ownedBy === 'string' ? raw.ownedBy : null]))
    : null;
  const ownerDelete = new Map<string, OwnerDeleteSources>();
  for (const [name, raw] of Object.entries(rawTables)) {
    const written = ir.tables[name] && isPlainObject(raw) && raw.onOwnerDelete !== undefined;
    ownerDelete.set(name, { table: written ? ir.tables[name].onOwnerDelete : undefined, shares: [] });
  }
  for (const [name, raw] of Object.entries(rawResources)) {
    issues.push(...checkResourceTypeName(name));
    const type = parseNode(resourceTypeShape, raw, ['resources', name], issues);
    if (type) {
      issues.push(...checkResourceType(name, type, tables));
      ir.resources[name] = withoutShareOwnerDelete(type, ['resources', name], ownerDelete);
    }
  }

  const resourceNames = isPlainObject(input.resources) ? new Set(Object.keys(input.resources)) : null;
  for (const [name, table] of Object.entries(ir.tables)) {
    issues.push(...checkInlineOwner(name, table, ir.resources, resourceNames));
    const { policy, issues: disagreements } = resolveOwnerDelete(name, ownerDelete.get(name) ?? { shares: [] });
    issues.push(...disagreements);
    if (policy !== null) table.onOwnerDelete = policy;
  }

  // File buckets (docs/api.md §13): their own namespace; absent (read as none) in schemas without files.
  for (const [name, raw] of Object.entries(isPlainObject(input.buckets) ? input.buckets : {})) {
    const bucket = parseNode(bucketShape, raw, ['buckets', name], issues);
    if (bucket) {
      issues.push(...checkBucket(name, bucket, resourceNames));
      ir.buckets = { ...ir.buckets, [name]: bucket };
    }
  }
  return { ir, issues };
}

/** Moves each share's `onOwnerDelete` out of the IR into `sources`, to be settled per table. */
function withoutShareOwnerDelete(type: ParsedResourceType, path: PathSegment[], sources: Map<string, OwnerDeleteSources>): ResourceTypeIR {
  const shares = type.shares.map(({ onOwnerDelete, ...share }, i) => {
    if (onOwnerDelete !== undefined) sources.get(share.table)?.shares.push({ path: [...path, 'shares', i, 'onOwnerDelete'], policy: onOwnerDelete });
    return share;
  });
  return { ...type, shares };
}

function parseNode<T extends TableIR | ParsedResourceType | BucketIR>(
  shape: z.ZodType<T>,
  raw: unknown,
  path: PathSegment[],
  issues: SchemaIssue[],
): T | null {
  const result = shape.safeParse(raw, { error: describeTypeIssue });
  if (result.success) return result.data;
  issues.push(...toSchemaIssues(path, result.error));
  return null;
}

/** zod reports unknown keys as one issue on the parent; one per key points straight at the typo. */
function toSchemaIssues(prefix: PathSegment[], error: z.ZodError): SchemaIssue[] {
  return error.issues.flatMap(issue => {
    const path = [...prefix, ...(issue.path as PathSegment[])];
    if (issue.code === 'unrecognized_keys') return issue.keys.map(key => issueAt([...path, key], 'unknown field'));
    return [issueAt(path, issue.message)];
  });
}

/** Plainer wording than zod's default for missing and mistyped fields; other issues keep theirs. */
function describeTypeIssue(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.input === undefined) return 'required';
  return `expected ${issue.expected}, got ${describeValue(issue.input)}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return `${typeof value} ${JSON.stringify(value)}`;
  }
  return typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
