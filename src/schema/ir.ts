/**
 * The app-schema IR: the plain-JSON contract between `defineSchema` (what app developers write)
 * and the server (which stores a deployed schema and reads it back through `validateSchemaIR`).
 * The membership service reads `resources[type].{visibility, defaultRole, grant, static}`, so
 * those shapes must not change without a new `version`.
 */
import { DEFAULT_GRANT, ROLES, type Role } from '../core/roles.rules.js';
import { VISIBILITY_NAMES, type VisibilityName } from '../membership/visibility.rules.js';

/** Role order, default ceilings and visibility names are membership rules; they live in src/core/roles.rules.ts and src/membership/visibility.rules.ts. */
export const ROLE_NAMES = ROLES;
export type RoleName = Role;
export { VISIBILITY_NAMES, type VisibilityName };

export const COLUMN_TYPES = ['text', 'uuid', 'integer', 'bigint', 'boolean', 'jsonb', 'timestamp'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export const ACCESS_ACTIONS = ['read', 'create', 'update', 'delete', 'unlink'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

/** `creator` is the row's author; `none` forbids the action outright (it must stand alone). */
export const ACCESS_RULES = [...ROLE_NAMES, 'creator', 'none'] as const;
export type AccessRule = (typeof ACCESS_RULES)[number];

/** What a file bucket's `access` names (docs/api.md §13); `unlink` removes a mount. A file rule. */
export { FILE_ACTIONS, type FileAction } from '../files/files.rules.js';
import type { FileAction } from '../files/files.rules.js';

export const MEMBER_REMOVE_POLICIES = ['remove', 'hide', 'retain'] as const;
export type MemberRemovePolicy = (typeof MEMBER_REMOVE_POLICIES)[number];

export const OWNER_DELETE_POLICIES = ['remove', 'tombstone', 'retain'] as const;
export type OwnerDeletePolicy = (typeof OWNER_DELETE_POLICIES)[number];

/**
 * Table and bucket names as the hosted product accepts them (`^[a-zA-Z][a-zA-Z0-9_]*$`, camelCase
 * included), at most 63 characters. They are stored and compared as text, never as SQL identifiers.
 */
export const TABLE_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{0,62}$/;
/**
 * Column names: a lowercase letter, then letters, digits and _ (`parentId`). Names starting with
 * `_` are the server's (`_creatorId`), so no declared column can take one.
 */
export const COLUMN_NAME_PATTERN = /^[a-z][a-zA-Z0-9_]{0,62}$/;

/**
 * The fields `timestamps()` adds, set by the server (never written by apps). camelCase, the style
 * rows are read in, so apps index, filter and order on `createdAt` (docs/api.md §5.5).
 */
export const TIMESTAMP_COLUMNS = ['createdAt', 'updatedAt'] as const;
export type TimestampColumn = (typeof TIMESTAMP_COLUMNS)[number];

/**
 * Names the server gives rows, so no declared column may take them: `id` is the row key,
 * `resourceId` says which resource holds it, room placement is a virtual `roomId` that is never a
 * column, and the timestamps exist only through `timestamps()` (docs/api.md §5.5). Who wrote a row
 * reads back as `_creatorId`, a name no column can have, so an app keeps its own `creatorId`.
 * The row store's server fields (src/rows/row-values.rules.ts) are these and `_creatorId`.
 */
export const RESERVED_COLUMNS = ['id', 'resourceId', 'roomId', 'room_id', 'createdAt', 'created_at', 'updatedAt', 'updated_at'] as const;

export { DEFAULT_GRANT };
export const DEFAULT_ROLE: RoleName = 'reader';
export const DEFAULT_MEMBER_REMOVE: MemberRemovePolicy = 'remove';
/** Our default (docs/api.md §5.5): removing a deleted account's rows is the privacy-safe choice. */
export const DEFAULT_OWNER_DELETE: OwnerDeletePolicy = 'remove';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface SchemaIR {
  version: 1;
  tables: Record<string, TableIR>;
  resources: Record<string, ResourceTypeIR>;
  /**
   * File buckets, one namespace per deployment: a user bucket (`ownedBy: null`, each user's own
   * files, declared with top-level `files(name, ...)`) or a resource type's (`r.files(name, ...)`).
   * Absent in schemas deployed before files existed: read as {}.
   */
  buckets?: Record<string, BucketIR>;
}

export interface BucketIR {
  /** The largest file accepted, in bytes (at most the server's MAX_FILE_BYTES). */
  maxBytes: number;
  /** Accepted media types: exact (`image/png`) or a family (`image/*`); `['*\/*']` accepts any. */
  contentTypes: string[];
  /** null: no rules declared, so the file defaults apply (docs/api.md §13). */
  access: Partial<Record<FileAction, AccessRule[]>> | null;
  /** The resource type whose instances hold this bucket; null: a user bucket. */
  ownedBy: string | null;
}

/**
 * Every table of the schema, in one namespace per deployment: a top-level table (`ownedBy: null`)
 * or one a resource type declared inline with `owns(name, table => ...)`.
 */
export interface TableIR {
  columns: Record<string, ColumnIR>;
  /** True adds `createdAt` and `updatedAt` (TIMESTAMP_COLUMNS), set by the server. */
  timestamps: boolean;
  /** Column lists; `createdAt`/`updatedAt` may appear when `timestamps` is true. */
  indexes: string[][];
  /**
   * Sets of declared columns unique together (`unique(['a', 'b'])`), beside single columns'
   * `unique`; held per scope like them (docs/api.md §11.3). Absent when none are declared.
   */
  uniques?: string[][];
  /** null: no rules declared here, so the data layer's defaults apply. */
  access: AccessIR | null;
  /**
   * What deleting an account does to that account's rows of this table, wherever they are (its
   * own rows, rows linked into resources, rows it created in resources). One policy per table,
   * so every resource type that shares or owns it sees the same outcome.
   */
  onOwnerDelete: OwnerDeletePolicy;
  /**
   * The resource type that declared this table inline (`owns(name, table => ...)`); its rows
   * exist only inside resources of that type, and no other type may share or own it. null: a
   * top-level table (users' own rows, which types may share or own).
   */
  ownedBy: string | null;
}

export interface ColumnIR {
  type: ColumnType;
  notNull: boolean;
  unique: boolean;
  /**
   * Absent when there is no default. JSON has no 64-bit integers or dates, so bigint defaults
   * are decimal strings and timestamp defaults are ISO 8601 strings.
   */
  default?: JsonValue;
}

export type AccessIR = Partial<Record<AccessAction, AccessRule[]>>;

export interface ResourceTypeIR {
  /** `allow` always includes `default`. */
  visibility: { default: VisibilityName; allow: VisibilityName[] };
  /** Role given on join and auto-join (docs/api.md §5.2, §5.5). Never `owner`. */
  defaultRole: RoleName;
  /** The highest role each role may assign; null means it may assign none. */
  grant: Record<RoleName, RoleName | null>;
  /** Slugs of the instances that exist without being created (app-level state). */
  static: string[];
  shares: ShareIR[];
  owns: OwnIR[];
}

/**
 * A table whose rows stay their creators' and are linked into a resource. Account deletion is the
 * table's `onOwnerDelete` (one policy per table); `share.onOwnerDelete()` in the builder, and an
 * `onOwnerDelete` key here in JSON, are accepted and moved onto the table.
 */
export interface ShareIR {
  table: string;
  onMemberRemove: MemberRemovePolicy;
  /** Overrides the table's own rules inside this resource type; null keeps them. */
  access: AccessIR | null;
}

/**
 * A table whose rows belong to the resource itself: a top-level table named here, or a table the
 * type declared inline (whose TableIR has `ownedBy` = this type). Nothing is linked, so no `unlink`.
 */
export interface OwnIR {
  table: string;
  access: AccessIR | null;
}
