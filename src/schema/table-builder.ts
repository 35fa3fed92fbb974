import { type RulesInput, parseAccessRules } from './access-rules.js';
import { Draft } from './draft.js';
import {
  type AccessAction,
  type AccessIR,
  COLUMN_TYPES,
  type ColumnIR,
  type ColumnType,
  type JsonValue,
  type OwnerDeletePolicy,
  type TableIR,
  type TimestampColumn,
} from './ir.js';

/** The column "declared" by a call the builder lacks (`t.string('title')`). */
const UNKNOWN = '\0unknown';

/** What `default()` takes per column type; the builder turns it into the IR's JSON form. */
export interface ColumnValues {
  text: string;
  uuid: string;
  integer: number;
  bigint: bigint | number;
  boolean: boolean;
  jsonb: JsonValue;
  timestamp: Date | string;
}

/** Each rule one name or a list of them (`'creator'`, `['reader', 'owner']`); the IR holds lists. */
export type AccessInput = RulesInput<AccessAction>;

/** What a table draft compiles to: the IR before validation fills `onOwnerDelete` and `ownedBy`. */
export type TableInput = Omit<TableIR, 'onOwnerDelete' | 'ownedBy'> & { onOwnerDelete?: OwnerDeletePolicy; ownedBy?: string };

type ColumnMethods<C extends string> = {
  readonly [T in ColumnType]: <N extends string>(name: N) => ColumnBuilder<C | N, T>;
};

/**
 * A chain knows its columns, so index() takes only those; a block-bodied callback
 * (`table => { table.text('a'); table.index(['a']); }`) calls each method on the builder it was
 * given, which knows none, so there any name is accepted and validation checks it.
 */
type IndexColumn<C extends string> = [C] extends [never] ? string : C;
/** A unique key names declared columns only (not the server's timestamps). */
type UniqueColumn<C extends string> = [Exclude<C, TimestampColumn>] extends [never] ? string : Exclude<C, TimestampColumn>;

/**
 * Declares a table by chaining: each column method starts a column, and the modifiers that follow
 * (`notNull() unique() default(v)`) apply to it. `C` tracks the declared column names so `index`
 * only accepts real ones.
 */
export interface TableBuilder<C extends string = never> extends ColumnMethods<C> {
  /** Adds `createdAt` and `updatedAt`, set by the server; they can be indexed like any column. */
  timestamps(): TableBuilder<C | TimestampColumn>;
  index(columns: readonly [IndexColumn<C>, ...IndexColumn<C>[]]): TableBuilder<C>;
  /** Declared columns unique together, per scope like a column's `unique()`: an upsert's `onConflict` may name them. */
  unique(columns: readonly [UniqueColumn<C>, ...UniqueColumn<C>[]]): TableBuilder<C>;
  access(rules: AccessInput): TableBuilder<C>;
  /** What deleting an account does to its rows of this table (docs/api.md §5.5); default `remove`. */
  onOwnerDelete(policy: OwnerDeletePolicy): TableBuilder<C>;
}

/** A table builder right after a column declaration, so the column modifiers are available. */
export interface ColumnBuilder<C extends string, T extends ColumnType> extends TableBuilder<C> {
  notNull(): ColumnBuilder<C, T>;
  /** This column is unique; with a list, those columns are unique together (a table-level key). */
  unique(): ColumnBuilder<C, T>;
  unique(columns: readonly [UniqueColumn<C>, ...UniqueColumn<C>[]]): TableBuilder<C>;
  default(value: ColumnValues[T]): ColumnBuilder<C, T>;
}

export class TableDraft extends Draft {
  private readonly columns: Record<string, ColumnIR> = {};
  private readonly indexes: string[][] = [];
  private readonly uniques: string[][] = [];
  private hasTimestamps = false;
  private ownerDelete: OwnerDeletePolicy | undefined;
  /** Set by everything but access(): tells an inline owns() table from access on a declared one. */
  private defined = false;
  private accessRules: AccessIR | null = null;
  /** The column the modifiers apply to; a table-level call ends it; UNKNOWN after a call the builder lacks. */
  private current: string | null = null;

  protected describe() {
    return {
      kind: 'table builder',
      methods: `columns are ${COLUMN_TYPES.join(', ')}; after a column: notNull, unique, default; and timestamps, index, access, onOwnerDelete`,
    };
  }

  protected unknownMethod() {
    // Its modifiers would apply to the column before it: they apply to nothing, silently (one problem is enough).
    this.current = UNKNOWN;
    // A misspelt column still says the callback meant to declare a table.
    this.defined = true;
  }

  /** Whether the callback declared a table (columns, timestamps, indexes or a policy), not only access. */
  get definesTable(): boolean {
    return this.defined;
  }

  /** The rules access() declared, for owns() of a declared table, where they are the type's override. */
  get declaredAccess(): AccessIR | null {
    return this.accessRules;
  }

  text(name: string) {
    return this.column(name, 'text');
  }
  uuid(name: string) {
    return this.column(name, 'uuid');
  }
  integer(name: string) {
    return this.column(name, 'integer');
  }
  bigint(name: string) {
    return this.column(name, 'bigint');
  }
  boolean(name: string) {
    return this.column(name, 'boolean');
  }
  jsonb(name: string) {
    return this.column(name, 'jsonb');
  }
  timestamp(name: string) {
    return this.column(name, 'timestamp');
  }

  notNull() {
    return this.modify('notNull', column => {
      column.notNull = true;
    });
  }
  unique(columns?: readonly string[]) {
    if (columns !== undefined) {
      this.uniques.push([...columns]);
      this.defined = true;
      return this.endColumn();
    }
    return this.modify('unique', column => {
      column.unique = true;
    });
  }

  default(value: unknown) {
    return this.modify('default', (column, name) => {
      const at = ['columns', name, 'default'];
      if (value === undefined) this.problem(at, 'default() needs a value');
      else if ('default' in column) this.problem(at, 'default() is declared twice; declare it once');
      else column.default = toJsonDefault(column.type, value);
    });
  }

  timestamps() {
    this.hasTimestamps = true;
    this.defined = true;
    return this.endColumn();
  }

  index(columns: readonly string[]) {
    this.indexes.push([...columns]);
    this.defined = true;
    return this.endColumn();
  }

  onOwnerDelete(policy: OwnerDeletePolicy) {
    if (this.once('onOwnerDelete', ['onOwnerDelete'])) this.ownerDelete = policy;
    this.defined = true;
    return this.endColumn();
  }

  access(rules: AccessInput) {
    if (this.once('access', ['access'])) this.accessRules = parseAccessRules(rules);
    return this.endColumn();
  }

  /** `ownedBy`: the resource type declaring this table inline. */
  toIR(ownedBy?: string): TableInput {
    return {
      columns: this.columns,
      timestamps: this.hasTimestamps,
      indexes: this.indexes,
      ...(this.uniques.length ? { uniques: this.uniques } : {}),
      access: this.accessRules,
      ...(this.ownerDelete ? { onOwnerDelete: this.ownerDelete } : {}),
      ...(ownedBy ? { ownedBy } : {}),
    };
  }

  private column(name: string, type: ColumnType) {
    this.defined = true;
    if (name in this.columns) this.problem(['columns', name], `column ${JSON.stringify(name)} is declared twice`);
    else this.columns[name] = { type, notNull: false, unique: false };
    this.current = name;
    return this;
  }

  private modify(method: string, apply: (column: ColumnIR, name: string) => void) {
    if (this.current === UNKNOWN) return this;
    // Types rule this out; plain JavaScript (or a cast) can still call a modifier out of place.
    if (this.current === null) this.problem([], `${method}() must directly follow a column declaration`);
    else apply(this.columns[this.current], this.current);
    return this;
  }

  private endColumn() {
    this.current = null;
    return this;
  }
}

/** JSON has no bigint or Date: bigints become decimal strings, dates ISO 8601 strings. */
function toJsonDefault(type: ColumnType, value: unknown): JsonValue {
  if (type === 'bigint' && (typeof value === 'bigint' || typeof value === 'number')) return String(value);
  if (type === 'timestamp' && value instanceof Date) {
    // An invalid Date cannot be serialised; its string form lets validation report it.
    return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  }
  return value as JsonValue;
}
