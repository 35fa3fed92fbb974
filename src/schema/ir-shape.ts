/**
 * The structural half of validation: zod shapes for each IR node. Cross-field rules (a default
 * that fits its column, an index naming real columns, grant ceilings …) live in `rules.ts`, which
 * runs on nodes these shapes accepted. Objects are strict because a misspelt key in deployed JSON
 * would otherwise be dropped without a word.
 */
import { z } from 'zod';
import {
  ACCESS_RULES,
  COLUMN_TYPES,
  MEMBER_REMOVE_POLICIES,
  OWNER_DELETE_POLICIES,
  ROLE_NAMES,
  VISIBILITY_NAMES,
  DEFAULT_OWNER_DELETE,
  type BucketIR,
  type ResourceTypeIR,
  type ShareIR,
  type TableIR,
} from './ir.js';

/** An enum whose message names the bad value and the choices, which zod's default does not. */
function oneOf<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  return z.enum(values, {
    error: ({ input }) => (input === undefined ? 'required' : `unknown ${what} ${JSON.stringify(input)}; expected one of ${values.join(', ')}`),
  });
}

const accessList = z.array(oneOf(ACCESS_RULES, 'access rule'));

const accessShape = z.strictObject({
  read: accessList.optional(),
  create: accessList.optional(),
  update: accessList.optional(),
  delete: accessList.optional(),
  unlink: accessList.optional(),
});

const columnShape = z.strictObject({
  type: oneOf(COLUMN_TYPES, 'column type'),
  notNull: z.boolean(),
  unique: z.boolean(),
  default: z.json().optional(),
});

const ownerDelete = oneOf(OWNER_DELETE_POLICIES, 'onOwnerDelete policy');

/** `onOwnerDelete` and `ownedBy` may be left out (IRs written before them): the defaults fill them. */
export const tableShape = z.strictObject({
  columns: z.record(z.string(), columnShape),
  timestamps: z.boolean(),
  indexes: z.array(z.array(z.string())),
  uniques: z.array(z.array(z.string())).optional(),
  access: accessShape.nullable(),
  onOwnerDelete: ownerDelete.default(DEFAULT_OWNER_DELETE),
  ownedBy: z.string().nullable().default(null),
});

/** `onOwnerDelete` on a share is the table's policy written where the table is shared; validate.ts moves it. */
const shareShape = z.strictObject({
  table: z.string(),
  onMemberRemove: oneOf(MEMBER_REMOVE_POLICIES, 'onMemberRemove policy'),
  onOwnerDelete: ownerDelete.optional(),
  access: accessShape.nullable(),
});

const role = oneOf(ROLE_NAMES, 'role');
const ceiling = role.nullable();
const visibility = oneOf(VISIBILITY_NAMES, 'visibility');

export const resourceTypeShape = z.strictObject({
  visibility: z.strictObject({
    default: visibility,
    allow: z.array(visibility).min(1, 'allow must list at least the default visibility'),
  }),
  defaultRole: role,
  grant: z.strictObject({ owner: ceiling, admin: ceiling, writer: ceiling, reader: ceiling }),
  static: z.array(z.string()),
  shares: z.array(shareShape),
  owns: z.array(z.strictObject({ table: z.string(), access: accessShape.nullable() })),
});

/** The largest file any bucket may declare (the server caps uploads further by MAX_FILE_BYTES). */
export const MAX_BUCKET_BYTES = 5 * 1024 ** 3;

/** RFC 6838 names, lower-case: `type/subtype`, a family `type/*`, or anything `*\/*`. */
const MEDIA_RANGE = /^(?:\*\/\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126}))$/;

export const bucketShape = z.strictObject({
  maxBytes: z
    .number()
    .int('maxBytes must be a whole number of bytes')
    .min(1, 'maxBytes must be at least 1')
    .max(MAX_BUCKET_BYTES, `maxBytes must be at most ${MAX_BUCKET_BYTES} (5 GiB)`),
  contentTypes: z
    .array(z.string().regex(MEDIA_RANGE, 'expected a lower-case media type such as image/png, a family such as image/*, or */*'))
    .min(1, 'list at least one media type, or ["*/*"] for any'),
  access: z
    .strictObject({
      list: accessList.optional(),
      read: accessList.optional(),
      upload: accessList.optional(),
      update: accessList.optional(),
      delete: accessList.optional(),
      unlink: accessList.optional(),
    })
    .nullable(),
  ownedBy: z.string().nullable(),
});

/** Table and resource values are parsed one by one (see validate.ts), so here they stay opaque. */
export const envelopeShape = z.strictObject({
  version: z.literal(1, {
    error: issue => `unsupported schema version ${JSON.stringify(issue.input)}; this server reads version 1`,
  }),
  tables: z.record(z.string(), z.unknown()),
  resources: z.record(z.string(), z.unknown()),
  buckets: z.record(z.string(), z.unknown()).optional(),
});

/** A parsed resource type before validate.ts moves each share's `onOwnerDelete` onto its table. */
export type ParsedResourceType = z.output<typeof resourceTypeShape>;

// Compile-time proof that what the shapes accept is exactly the IR the rest of the code reads
// (a share's optional `onOwnerDelete` aside, which never reaches the IR).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type WithoutShareOwnerDelete<T extends ParsedResourceType> = Omit<T, 'shares'> & { shares: Omit<T['shares'][number], 'onOwnerDelete'>[] };
const proofs: [
  Same<z.output<typeof tableShape>, TableIR>,
  Same<Omit<z.output<typeof shareShape>, 'onOwnerDelete'>, ShareIR>,
  Same<WithoutShareOwnerDelete<ParsedResourceType>, ResourceTypeIR>,
  Same<z.output<typeof bucketShape>, BucketIR>,
] = [true, true, true, true];
void proofs;
