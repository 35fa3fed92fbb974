import { type BucketDecl, type BucketOptions, bucketIR } from './bucket-builder.js';
import { Draft } from './draft.js';
import {
  DEFAULT_GRANT,
  DEFAULT_MEMBER_REMOVE,
  DEFAULT_ROLE,
  type AccessIR,
  type MemberRemovePolicy,
  type OwnerDeletePolicy,
  type OwnIR,
  type ResourceTypeIR,
  type RoleName,
  type ShareIR,
  type VisibilityName,
} from './ir.js';
import { formatPath, type PathSegment, type SchemaIssue } from './schema-validation-error.js';
import type { TableDefinition } from './define-schema.js';
import { parseAccessRules } from './access-rules.js';
import { TableDraft, type AccessInput, type TableInput } from './table-builder.js';

/** One state, or a `default` the creator gets unless they pick another state from `allow`. */
export type VisibilityInput = VisibilityName | { default: VisibilityName; allow: readonly VisibilityName[] };

/** The ceilings each role may have (see rules.ts): up to its own rank, never owner. */
interface Grantable {
  owner: 'admin' | 'writer' | 'reader';
  admin: 'admin' | 'writer' | 'reader';
  writer: 'writer' | 'reader';
  reader: 'reader';
}
/** Roles left out keep their default ceiling; null means the role may assign nothing. */
export type GrantInput = { readonly [R in RoleName]?: Grantable[R] | null };

export interface ShareBuilder {
  /** What happens to a leaving member's linked rows (docs/api.md §5.5); default `remove`. */
  onMemberRemove(policy: MemberRemovePolicy): ShareBuilder;
  /**
   * The table's account-deletion policy, written where it is shared: it is stored on the table
   * (one policy per table), so every place that writes it must agree. Default `remove`.
   */
  onOwnerDelete(policy: OwnerDeletePolicy): ShareBuilder;
  /** Rules for the table inside this resource type, replacing the table's own. */
  access(rules: AccessInput): ShareBuilder;
}

export interface OwnBuilder {
  /** Rules for the table inside this resource type. Owned rows are never linked: no `unlink`. */
  access(rules: Omit<AccessInput, 'unlink'>): OwnBuilder;
}

/** `Tables` is the schema's table names, so shares() and owns() only accept declared tables. */
export interface ResourceBuilder<Tables extends string = string> {
  /** Default `members`: a type is private unless it says otherwise. */
  visibility(visibility: VisibilityInput): ResourceBuilder<Tables>;
  /** The role join and auto-join give (docs/api.md §5.5); default `reader`. */
  defaultRole(role: Exclude<RoleName, 'owner'>): ResourceBuilder<Tables>;
  /** Merged over the default ceilings (owner -> admin, admin -> writer, writer and reader -> none). */
  grant(ceilings: GrantInput): ResourceBuilder<Tables>;
  /** Instances that exist without being created, looked up by slug. */
  static(slugs: readonly string[]): ResourceBuilder<Tables>;
  shares(table: Tables, configure?: (share: ShareBuilder) => ShareBuilder | void): ResourceBuilder<Tables>;
  /** A table declared under `tables` whose rows, in this type, belong to the resource. */
  owns(table: Tables, configure?: (own: OwnBuilder) => OwnBuilder | void): ResourceBuilder<Tables>;
  /**
   * A table declared here, inline: its rows exist only inside resources of this type. Its name
   * joins the schema's one table namespace, so it may not repeat a top-level or another inline
   * table's name (docs/api.md §5.5).
   */
  owns(name: string, define: InlineTableDefinition): ResourceBuilder<Tables>;
  /**
   * A file bucket of this type (docs/api.md §13): files belong to the resource, placed in rooms
   * like rows. Bucket names are one namespace per schema, apart from tables.
   */
  files(name: string, options?: BucketOptions): ResourceBuilder<Tables>;
}

/** An inline owned table: the same builder as a top-level table (validation refuses an `unlink` rule: owned rows are never linked). */
export type InlineTableDefinition = TableDefinition;

/** Inline tables found while compiling, for define-schema to place under `tables`. */
export interface InlineTable {
  name: string;
  /** Where the author wrote it, e.g. `resources.members.owns[0]`: issues are reported there. */
  path: PathSegment[];
  table: TableInput;
}

/** What a share draft compiles to: a ShareIR, plus the table's onOwnerDelete if written here. */
type ShareInput = ShareIR & { onOwnerDelete?: OwnerDeletePolicy };

export class ResourceDraft extends Draft {
  private declaredVisibility: ResourceTypeIR['visibility'] = { default: 'members', allow: ['members'] };
  private role: RoleName = DEFAULT_ROLE;
  private ceilings: ResourceTypeIR['grant'] = { ...DEFAULT_GRANT };
  private slugs: string[] = [];
  private readonly shareDrafts: ShareDraft[] = [];
  private readonly owned: OwnIR[] = [];

  /**
   * `typeName` names the type in the IR (`ownedBy` of its inline tables); `topLevelTables` are the
   * names declared under `tables`, which owns() refers to; `inline` collects every type's inline
   * tables, so a name used twice across the schema is caught where it is written.
   */
  constructor(
    private readonly typeName: string,
    private readonly topLevelTables: ReadonlySet<string>,
    private readonly inline: InlineTable[],
    path: readonly PathSegment[],
    problems: SchemaIssue[],
    private readonly buckets: BucketDecl[] = [],
  ) {
    super(path, problems);
  }

  protected describe() {
    return { kind: 'resource builder', methods: 'it has visibility, defaultRole, grant, static, shares, owns, files' };
  }

  files(name: string, options: BucketOptions = {}) {
    const at: PathSegment[] = [...this.path, 'files', name];
    const earlier = this.buckets.find(other => other.name === name);
    if (earlier) {
      this.problem(
        ['files', name],
        `bucket ${JSON.stringify(name)} is already declared at ${formatPath(earlier.path)}; bucket names are shared by the whole schema`,
      );
      return this;
    }
    this.buckets.push({ name, path: at, bucket: bucketIR(options, this.typeName) });
    return this;
  }

  visibility(visibility: VisibilityInput) {
    if (this.once('visibility', ['visibility'])) this.declaredVisibility = normalizeVisibility(visibility);
    return this;
  }

  defaultRole(role: RoleName) {
    if (this.once('defaultRole', ['defaultRole'])) this.role = role;
    return this;
  }

  grant(ceilings: GrantInput) {
    if (!this.once('grant', ['grant'])) return this;
    for (const [role, ceiling] of Object.entries(ceilings)) {
      // `{ writer: undefined }` means "not mentioned", not "clear the ceiling": that is null.
      if (ceiling !== undefined) this.ceilings[role as RoleName] = ceiling;
    }
    return this;
  }

  static(slugs: readonly string[]) {
    if (this.once('static', ['static'])) this.slugs = [...slugs];
    return this;
  }

  shares(table: string, configure?: (share: ShareBuilder) => ShareBuilder | void) {
    const draft = new ShareDraft(table, [...this.path, 'shares', this.shareDrafts.length], this.problems);
    configure?.(draft.builder());
    this.shareDrafts.push(draft);
    return this;
  }

  /**
   * One callback shape serves both forms: a callback that declares columns, timestamps, indexes
   * or onOwnerDelete defines an inline table; one that only sets access() (or none) refers to a
   * table declared under `tables`.
   */
  owns(table: string, configure?: (draft: TableDraft) => unknown) {
    const at: PathSegment[] = ['owns', this.owned.length];
    const draft = new TableDraft([...this.path, ...at], this.problems);
    configure?.(draft.builder());
    if (!draft.definesTable) {
      this.owned.push({ table, access: draft.declaredAccess });
      return this;
    }
    if (this.topLevelTables.has(table)) {
      const message = `owns(${JSON.stringify(table)}, ...) declares a table, but "${table}" is a top-level table: declare its columns under tables.${table} (owns() of it can only set access), or give the inline table a name of its own`;
      this.problem(at, message);
      return this;
    }
    const earlier = this.inline.find(other => other.name === table);
    if (earlier) {
      const message = `table ${JSON.stringify(table)} is already declared inline at ${formatPath(earlier.path)}; table names are shared by the whole schema, so give this one another name`;
      this.problem(at, message);
      return this;
    }
    this.inline.push({ name: table, path: [...this.path, ...at], table: draft.toIR(this.typeName) });
    this.owned.push({ table, access: null });
    return this;
  }

  /** The type before validation moves share-written onOwnerDelete policies onto their tables. */
  toIR(): Omit<ResourceTypeIR, 'shares'> & { shares: ShareInput[] } {
    return {
      visibility: this.declaredVisibility,
      defaultRole: this.role,
      grant: this.ceilings,
      static: this.slugs,
      shares: this.shareDrafts.map(draft => draft.toIR()),
      owns: this.owned,
    };
  }
}

/** The IR's `allow` always includes the default, so consumers check one list. */
function normalizeVisibility(visibility: VisibilityInput): ResourceTypeIR['visibility'] {
  if (typeof visibility !== 'object' || visibility === null) return { default: visibility, allow: [visibility] };
  return { default: visibility.default, allow: [...new Set([visibility.default, ...(visibility.allow ?? [])])] };
}

class ShareDraft extends Draft {
  private memberRemove: MemberRemovePolicy = DEFAULT_MEMBER_REMOVE;
  private ownerDelete: OwnerDeletePolicy | undefined;
  private accessRules: AccessIR | null = null;

  constructor(
    private readonly table: string,
    ...rest: ConstructorParameters<typeof Draft>
  ) {
    super(...rest);
  }

  protected describe() {
    return { kind: 'share builder', methods: 'it has onMemberRemove, onOwnerDelete, access' };
  }

  onMemberRemove(policy: MemberRemovePolicy) {
    if (this.once('onMemberRemove', ['onMemberRemove'])) this.memberRemove = policy;
    return this;
  }

  onOwnerDelete(policy: OwnerDeletePolicy) {
    if (this.once('onOwnerDelete', ['onOwnerDelete'])) this.ownerDelete = policy;
    return this;
  }

  access(rules: AccessInput) {
    if (this.once('access', ['access'])) this.accessRules = parseAccessRules(rules);
    return this;
  }

  toIR(): ShareInput {
    return {
      table: this.table,
      onMemberRemove: this.memberRemove,
      ...(this.ownerDelete ? { onOwnerDelete: this.ownerDelete } : {}),
      access: this.accessRules,
    };
  }
}
