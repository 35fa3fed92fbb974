import { Draft } from './draft.js';
import {
  DEFAULT_GRANT,
  DEFAULT_MEMBER_REMOVE,
  DEFAULT_OWNER_DELETE,
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
import { copyAccess, type AccessInput } from './table-builder.js';

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
  /** What happens to a deleted account's linked rows; default `remove`. */
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
  owns(table: Tables, configure?: (own: OwnBuilder) => OwnBuilder | void): ResourceBuilder<Tables>;
}

export class ResourceDraft extends Draft {
  private declaredVisibility: ResourceTypeIR['visibility'] = { default: 'members', allow: ['members'] };
  private role: RoleName = DEFAULT_ROLE;
  private ceilings: ResourceTypeIR['grant'] = { ...DEFAULT_GRANT };
  private slugs: string[] = [];
  private readonly shareDrafts: ShareDraft[] = [];
  private readonly ownDrafts: OwnDraft[] = [];

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
    configure?.(draft);
    this.shareDrafts.push(draft);
    return this;
  }

  owns(table: string, configure?: (own: OwnBuilder) => OwnBuilder | void) {
    const draft = new OwnDraft(table, [...this.path, 'owns', this.ownDrafts.length], this.problems);
    configure?.(draft);
    this.ownDrafts.push(draft);
    return this;
  }

  toIR(): ResourceTypeIR {
    return {
      visibility: this.declaredVisibility,
      defaultRole: this.role,
      grant: this.ceilings,
      static: this.slugs,
      shares: this.shareDrafts.map(draft => draft.toIR()),
      owns: this.ownDrafts.map(draft => draft.toIR()),
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
  private ownerDelete: OwnerDeletePolicy = DEFAULT_OWNER_DELETE;
  private accessRules: AccessIR | null = null;

  constructor(
    private readonly table: string,
    ...rest: ConstructorParameters<typeof Draft>
  ) {
    super(...rest);
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
    if (this.once('access', ['access'])) this.accessRules = copyAccess(rules);
    return this;
  }

  toIR(): ShareIR {
    return {
      table: this.table,
      onMemberRemove: this.memberRemove,
      onOwnerDelete: this.ownerDelete,
      access: this.accessRules,
    };
  }
}

class OwnDraft extends Draft {
  private accessRules: AccessIR | null = null;

  constructor(
    private readonly table: string,
    ...rest: ConstructorParameters<typeof Draft>
  ) {
    super(...rest);
  }

  access(rules: AccessInput) {
    if (this.once('access', ['access'])) this.accessRules = copyAccess(rules);
    return this;
  }

  toIR(): OwnIR {
    return { table: this.table, access: this.accessRules };
  }
}
