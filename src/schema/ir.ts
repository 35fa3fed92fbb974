/**
 * The app-schema IR: the plain-JSON contract between `defineSchema` (what app developers write)
 * and the server (which stores a deployed schema and reads it back through `validateSchemaIR`).
 * The membership service reads `resources[type].{visibility, defaultRole, grant, static}`, so
 * those shapes must not change without a new `version`.
 */
import { DEFAULT_GRANT, ROLES, type Role } from '../domain/roles.js';
import { VISIBILITY_NAMES, type VisibilityName } from '../domain/visibility.js';

/** Role order, default ceilings and visibility names are membership rules; they live in src/domain. */
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

export const MEMBER_REMOVE_POLICIES = ['remove', 'hide', 'retain'] as const;
export type MemberRemovePolicy = (typeof MEMBER_REMOVE_POLICIES)[number];

export const OWNER_DELETE_POLICIES = ['remove', 'tombstone', 'retain'] as const;
export type OwnerDeletePolicy = (typeof OWNER_DELETE_POLICIES)[number];

/** Column names `timestamps()` stands for; the data layer creates and maintains them. */
export const TIMESTAMP_COLUMNS = ['created_at', 'updated_at'] as const;
export type TimestampColumn = (typeof TIMESTAMP_COLUMNS)[number];

/**
 * Names the data layer already gives every row: `id` is the row key, and room placement is a
 * virtual `roomId` that is never a column (docs/api.md §5.5), whichever way it is spelled.
 */
export const RESERVED_COLUMNS = ['id', 'roomId', 'room_id'] as const;

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
}

export interface TableIR {
  columns: Record<string, ColumnIR>;
  /** True adds `created_at` and `updated_at` (TIMESTAMP_COLUMNS), maintained by the data layer. */
  timestamps: boolean;
  indexes: string[][];
  /** null: no rules declared here, so the data layer's defaults apply. */
  access: AccessIR | null;
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

/** A table whose rows stay their creators' and are linked into a resource. */
export interface ShareIR {
  table: string;
  onMemberRemove: MemberRemovePolicy;
  onOwnerDelete: OwnerDeletePolicy;
  /** Overrides the table's own rules inside this resource type; null keeps them. */
  access: AccessIR | null;
}

/** A table whose rows belong to the resource itself. Nothing is linked, so there is no `unlink`. */
export interface OwnIR {
  table: string;
  access: AccessIR | null;
}
