/**
 * The semantic half of validation: rules that need more than one field (or the set of table
 * names) to decide. Each takes a node the zod shapes already accepted and returns every issue it
 * finds, so one run reports all of them.
 */
import { z } from 'zod';
import { rank } from '../core/roles.rules.js';
import {
  type RESERVED_COLUMNS,
  TIMESTAMP_COLUMNS,
  COLUMN_NAME_PATTERN,
  TABLE_NAME_PATTERN,
  type AccessIR,
  type BucketIR,
  type ColumnIR,
  type ColumnType,
  type JsonValue,
  type OwnerDeletePolicy,
  type ResourceTypeIR,
  type RoleName,
  type TableIR,
} from './ir.js';
import { formatPath, issueAt, type PathSegment, type SchemaIssue } from './schema-validation-error.js';

/** Resource type names: lowercase, digits and _ (they appear in ids and URLs as written). */
const TYPE_NAME = /^[a-z][a-z0-9_]{0,62}$/;
const STATIC_SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/** What a default must look like per column type; `expected` completes "expected …" in messages. */
const DEFAULT_VALUES: Record<ColumnType, { schema: z.ZodType; expected: string }> = {
  text: { schema: z.string(), expected: 'a string' },
  uuid: { schema: z.guid(), expected: 'a UUID string' },
  integer: { schema: z.int32(), expected: 'a 32-bit integer' },
  bigint: {
    schema: z.string().refine(text => /^-?\d+$/.test(text) && BigInt(text) >= INT64.min && BigInt(text) <= INT64.max),
    expected: 'a 64-bit integer as a decimal string (JSON numbers cannot hold every 64-bit integer)',
  },
  boolean: { schema: z.boolean(), expected: 'true or false' },
  jsonb: { schema: z.json(), expected: 'a JSON value' },
  timestamp: { schema: z.iso.datetime({ offset: true }), expected: 'an ISO 8601 date-time string' },
};

const ROOM_REASON = 'room placement is virtual and never a column (docs/api.md §5.5)';
const TIMESTAMP_REASON = `the server sets ${TIMESTAMP_COLUMNS.join(' and ')}: declare them with timestamps()`;
const RESERVED_COLUMN_REASONS = new Map<string, string>([
  ['id', 'every row already has an id'],
  ['resourceId', 'the server records which resource holds each row'],
  ['roomId', ROOM_REASON],
  ['room_id', ROOM_REASON],
  ['createdAt', TIMESTAMP_REASON],
  ['created_at', TIMESTAMP_REASON],
  ['updatedAt', TIMESTAMP_REASON],
  ['updated_at', TIMESTAMP_REASON],
] satisfies [(typeof RESERVED_COLUMNS)[number], string][]);

/** True when `list[i]` already appeared earlier; the first occurrence is never the duplicate. */
const repeatsEarlier = <T>(list: readonly T[], i: number): boolean => list.indexOf(list[i]) !== i;

const TYPE_NAME_HINT = 'must start with a lowercase letter and use only lowercase letters, digits and _ (at most 63 characters)';
const TABLE_NAME_HINT = 'must start with a letter and use only letters, digits and _ (at most 63 characters)';

export function checkTableName(name: string): SchemaIssue[] {
  if (TABLE_NAME_PATTERN.test(name)) return [];
  return [issueAt(['tables', name], `table name ${JSON.stringify(name)} ${TABLE_NAME_HINT}`)];
}

export function checkResourceTypeName(name: string): SchemaIssue[] {
  const path = ['resources', name];
  if (name.startsWith('_')) {
    const message = `resource type ${JSON.stringify(name)} is reserved: names starting with "_" belong to the platform (docs/api.md §5.5)`;
    return [issueAt(path, message)];
  }
  if (TYPE_NAME.test(name)) return [];
  return [issueAt(path, `resource type name ${JSON.stringify(name)} ${TYPE_NAME_HINT}`)];
}

export function checkTable(name: string, table: TableIR): SchemaIssue[] {
  const path = ['tables', name];
  const columnIssues = Object.entries(table.columns).flatMap(([column, ir]) => checkColumn([...path, 'columns', column], column, ir));
  return [
    ...columnIssues,
    ...checkIndexes([...path, 'indexes'], table),
    ...checkUniques([...path, 'uniques'], table),
    // An inline table's rows belong to resources of its type and are never linked.
    ...checkAccess([...path, 'access'], table.access, { unlink: table.ownedBy === null }),
  ];
}

function checkColumn(path: PathSegment[], name: string, column: ColumnIR): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  if (!COLUMN_NAME_PATTERN.test(name)) {
    const hint = 'must start with a lowercase letter and use only letters, digits and _ (at most 63 characters)';
    issues.push(issueAt(path, `column name ${JSON.stringify(name)} ${hint}`));
  }
  const reserved = RESERVED_COLUMN_REASONS.get(name);
  if (reserved) issues.push(issueAt(path, `column name ${JSON.stringify(name)} is reserved: ${reserved}`));
  if (column.default !== undefined) issues.push(...checkDefault([...path, 'default'], column.type, column.default));
  return issues;
}

function checkDefault(path: PathSegment[], type: ColumnType, value: JsonValue): SchemaIssue[] {
  // NULL is what a column without a default already gets; a null default would only blur that.
  if (value === null) return [issueAt(path, 'a default cannot be null; leave the default out instead')];
  const { schema, expected } = DEFAULT_VALUES[type];
  if (schema.safeParse(value).success) return [];
  return [issueAt(path, `default ${JSON.stringify(value)} does not fit column type ${type}: expected ${expected}`)];
}

function checkIndexes(path: PathSegment[], table: TableIR): SchemaIssue[] {
  const known = new Set([...Object.keys(table.columns), ...(table.timestamps ? TIMESTAMP_COLUMNS : [])]);
  const seen = new Map<string, number>();
  return table.indexes.flatMap((columns, i): SchemaIssue[] => {
    if (columns.length === 0) return [issueAt([...path, i], 'an index needs at least one column')];
    const issues = columns.flatMap((column, j) => {
      const at = [...path, i, j];
      if (!known.has(column)) return [issueAt(at, unknownIndexColumn(column, table.timestamps))];
      if (repeatsEarlier(columns, j)) return [issueAt(at, `column ${JSON.stringify(column)} appears twice in this index`)];
      return [];
    });
    const key = JSON.stringify(columns);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else issues.push(issueAt([...path, i], `duplicates index ${first} (same columns in the same order)`));
    return issues;
  });
}

/** `unique([...])` keys: declared columns (a timestamp is never a key), none twice, no key declared twice. */
function checkUniques(path: PathSegment[], table: TableIR): SchemaIssue[] {
  const seen = new Map<string, number>();
  return (table.uniques ?? []).flatMap((columns, i): SchemaIssue[] => {
    if (columns.length === 0) return [issueAt([...path, i], 'a unique key needs at least one column')];
    const issues = columns.flatMap((column, j) => {
      const at = [...path, i, j];
      if (!Object.hasOwn(table.columns, column))
        return [issueAt(at, `unique names unknown column ${JSON.stringify(column)} (a key is made of declared columns)`)];
      if (repeatsEarlier(columns, j)) return [issueAt(at, `column ${JSON.stringify(column)} appears twice in this unique key`)];
      return [];
    });
    const key = JSON.stringify([...columns].sort());
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else issues.push(issueAt([...path, i], `duplicates unique key ${first} (the same columns)`));
    return issues;
  });
}

/** The timestamp columns are the likeliest misses: say how to get them rather than only "unknown". */
function unknownIndexColumn(column: string, timestamps: boolean): string {
  const unknown = `index names unknown column ${JSON.stringify(column)}`;
  if ((TIMESTAMP_COLUMNS as readonly string[]).includes(column) && !timestamps) return `${unknown}: it exists only with timestamps()`;
  if (column === 'created_at' || column === 'updated_at') return `${unknown}: the timestamps() columns are ${TIMESTAMP_COLUMNS.join(' and ')}`;
  return unknown;
}

function checkAccess(path: PathSegment[], access: AccessIR | null, allow: { unlink: boolean }): SchemaIssue[] {
  if (!access) return [];
  return Object.entries(access).flatMap(([action, rules]): SchemaIssue[] => {
    const at = [...path, action];
    if (action === 'unlink' && !allow.unlink) {
      return [issueAt(at, 'owned rows are not linked into the resource, so there is nothing to unlink')];
    }
    if (rules.length === 0) return [issueAt(at, `list at least one rule, or ["none"] to forbid ${action}`)];
    if (rules.includes('none') && rules.length > 1) {
      return [issueAt(at, '"none" forbids the action, so it cannot be combined with other rules')];
    }
    return rules.flatMap((rule, i) => (repeatsEarlier(rules, i) ? [issueAt([...at, i], `rule ${JSON.stringify(rule)} is listed twice`)] : []));
  });
}

/**
 * `tables`: each declared table name with its `ownedBy` (see TableIR); null when the tables are
 * unreadable, so links to them are not judged.
 */
export function checkResourceType(name: string, type: ResourceTypeIR, tables: ReadonlyMap<string, string | null> | null): SchemaIssue[] {
  const path = ['resources', name];
  return [
    ...checkVisibility([...path, 'visibility'], type.visibility),
    ...checkDefaultRole([...path, 'defaultRole'], type.defaultRole),
    ...checkGrant([...path, 'grant'], type.grant),
    ...checkStatic([...path, 'static'], type.static),
    ...checkTableLinks(path, name, type, tables),
  ];
}

function checkVisibility(path: PathSegment[], visibility: ResourceTypeIR['visibility']): SchemaIssue[] {
  const issues = visibility.allow.flatMap((value, i) =>
    repeatsEarlier(visibility.allow, i) ? [issueAt([...path, 'allow', i], `${JSON.stringify(value)} is listed twice`)] : [],
  );
  if (!visibility.allow.includes(visibility.default)) {
    const message = `default ${JSON.stringify(visibility.default)} is not in allow [${visibility.allow.join(', ')}]; allow must include the default`;
    issues.push(issueAt([...path, 'default'], message));
  }
  return issues;
}

function checkDefaultRole(path: PathSegment[], role: RoleName): SchemaIssue[] {
  if (role !== 'owner') return [];
  return [issueAt(path, 'defaultRole cannot be "owner": the creator is the only owner, and joiners get the default role')];
}

/**
 * A role may hand out at most its own rank (an admin may make admins), never more, and nobody may
 * hand out ownership (docs/api.md §5.5: "ownership cannot be handed out by grant").
 */
function checkGrant(path: PathSegment[], grant: ResourceTypeIR['grant']): SchemaIssue[] {
  return Object.entries(grant).flatMap(([role, ceiling]): SchemaIssue[] => {
    if (ceiling === null) return [];
    const at = [...path, role];
    if (ceiling === 'owner') {
      return [issueAt(at, 'ownership cannot be handed out by grant (docs/api.md §5.5); the highest ceiling is "admin"')];
    }
    if (rank(ceiling) > rank(role as RoleName)) {
      return [issueAt(at, `"${role}" cannot grant "${ceiling}": a role's ceiling may not exceed the role itself`)];
    }
    return [];
  });
}

function checkStatic(path: PathSegment[], slugs: string[]): SchemaIssue[] {
  return slugs.flatMap((slug, i): SchemaIssue[] => {
    if (!STATIC_SLUG.test(slug)) {
      const hint = 'must start with a lowercase letter or digit and use only lowercase letters, digits and - (at most 63 characters)';
      return [issueAt([...path, i], `static slug ${JSON.stringify(slug)} ${hint}`)];
    }
    if (repeatsEarlier(slugs, i)) return [issueAt([...path, i], `static slug ${JSON.stringify(slug)} is listed twice`)];
    return [];
  });
}

function checkTableLinks(
  path: PathSegment[],
  typeName: string,
  type: ResourceTypeIR,
  tables: ReadonlyMap<string, string | null> | null,
): SchemaIssue[] {
  const shared = type.shares.map(share => share.table);
  const owned = type.owns.map(own => own.table);
  const check = (kind: 'shares' | 'owns', list: string[], i: number): SchemaIssue[] => {
    const table = list[i];
    const at = [...path, kind, i, 'table'];
    if (tables && !tables.has(table)) {
      const hint = kind === 'owns' ? `: declare it under tables, or define it inline with owns(${JSON.stringify(table)}, table => ...)` : '';
      return [issueAt(at, `${kind} unknown table ${JSON.stringify(table)}${hint}`)];
    }
    if (repeatsEarlier(list, i)) return [issueAt(at, `table ${JSON.stringify(table)} is listed twice in ${kind}`)];
    const inlineOwner = tables?.get(table) ?? null;
    if (inlineOwner !== null && (kind === 'shares' || inlineOwner !== typeName)) {
      const message = `table ${JSON.stringify(table)} is declared inline by resource type ${JSON.stringify(inlineOwner)}; its rows exist only in resources of that type, so ${JSON.stringify(typeName)} cannot ${kind === 'shares' ? 'share' : 'own'} it`;
      return [issueAt(at, message)];
    }
    if (kind === 'owns' && shared.includes(table)) {
      const message = `table ${JSON.stringify(table)} is both shared and owned by ${JSON.stringify(typeName)}; its rows are either linked in or owned, not both`;
      return [issueAt(at, message)];
    }
    return [];
  };
  return [
    ...type.shares.flatMap((share, i) => [
      ...check('shares', shared, i),
      ...checkAccess([...path, 'shares', i, 'access'], share.access, { unlink: true }),
    ]),
    ...type.owns.flatMap((own, i) => [...check('owns', owned, i), ...checkAccess([...path, 'owns', i, 'access'], own.access, { unlink: false })]),
  ];
}

/**
 * An inline table (`ownedBy` set) must name a resource type of the schema that lists it in
 * `owns`. `resources` holds the parsed types; `resourceNames` every declared type name (null when
 * unreadable), so a type that failed to parse does not also make its tables report it missing.
 */
export function checkInlineOwner(
  name: string,
  table: TableIR,
  resources: Readonly<Record<string, ResourceTypeIR>>,
  resourceNames: ReadonlySet<string> | null,
): SchemaIssue[] {
  const owner = table.ownedBy;
  if (owner === null || !resourceNames) return [];
  const at = ['tables', name, 'ownedBy'];
  if (!resourceNames.has(owner)) return [issueAt(at, `ownedBy names unknown resource type ${JSON.stringify(owner)}`)];
  const type = resources[owner];
  if (type && !type.owns.some(own => own.table === name)) {
    return [
      issueAt(
        at,
        `resource type ${JSON.stringify(owner)} does not list ${JSON.stringify(name)} in owns; an inline table belongs to the type that owns it`,
      ),
    ];
  }
  return [];
}

/** A table's own `onOwnerDelete`, if it wrote one, and each policy written on a share of it. */
export interface OwnerDeleteSources {
  table?: OwnerDeletePolicy;
  shares: { path: PathSegment[]; policy: OwnerDeletePolicy }[];
}

/**
 * One account-deletion policy per table: written on the table, or on any of its shares (which
 * must then agree with each other and with the table). Returns the policy to store, or null when
 * nothing was written (the default applies), with an issue at each share that disagrees.
 */
export function resolveOwnerDelete(table: string, sources: OwnerDeleteSources): { policy: OwnerDeletePolicy | null; issues: SchemaIssue[] } {
  const [first, ...rest] = sources.shares;
  const policy = sources.table ?? first?.policy ?? null;
  const where = sources.table !== undefined ? `on table ${JSON.stringify(table)}` : `on its first share (${formatPath(first?.path ?? [])})`;
  const issues = (sources.table !== undefined ? sources.shares : rest).flatMap(({ path, policy: given }) =>
    given === policy
      ? []
      : [
          issueAt(
            path,
            `onOwnerDelete ${JSON.stringify(given)} disagrees with ${JSON.stringify(policy)} ${where}; account deletion has one policy per table, so declare it once, on the table`,
          ),
        ],
  );
  return { policy, issues };
}

/** A bucket (docs/api.md §13): its name, its owner type, and its access rules as tables' are judged. */
export function checkBucket(name: string, bucket: BucketIR, resourceNames: ReadonlySet<string> | null): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const path = ['buckets', name];
  if (!TABLE_NAME_PATTERN.test(name)) issues.push(issueAt(path, `bucket name ${JSON.stringify(name)} ${TABLE_NAME_HINT}`));
  if (bucket.ownedBy !== null && resourceNames && !resourceNames.has(bucket.ownedBy)) {
    issues.push(issueAt([...path, 'ownedBy'], `ownedBy names unknown resource type ${JSON.stringify(bucket.ownedBy)}`));
  }
  if (bucket.ownedBy === null && bucket.access) {
    issues.push(
      issueAt([...path, 'access'], "a user bucket holds each user's own files, which only they reach: access rules apply to resource buckets"),
    );
  }
  issues.push(...checkAccess([...path, 'access'], bucket.access as AccessIR | null, { unlink: true }));
  bucket.contentTypes.forEach((type, i) => {
    if (repeatsEarlier(bucket.contentTypes, i))
      issues.push(issueAt([...path, 'contentTypes', i], `media type ${JSON.stringify(type)} is listed twice`));
  });
  return issues;
}
