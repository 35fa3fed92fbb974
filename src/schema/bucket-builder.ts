/**
 * File buckets in `defineSchema` (docs/api.md §13): `files: { avatars: { maxSize: '2MB' } }` at the
 * top level declares a user bucket (each user's own files); `r.files('photos', { ... })` on a
 * resource type declares that type's bucket, partitioned by rooms like its tables.
 */
import { type RulesInput, parseAccessRules } from './access-rules.js';
import type { BucketIR, FileAction } from './ir.js';
import type { PathSegment } from './schema-validation-error.js';

export interface BucketOptions {
  /** Bytes, or '500KB', '20MB', '1GB' (1024-based). Default 10MB. */
  maxSize?: number | string;
  /** Media types accepted: `image/png`, a family `image/*`, or `*\/*` (the default). */
  accept?: readonly string[];
  /** Resource buckets only: per action one rule or a list (`upload: 'writer'`); actions left out take the defaults (docs/api.md §13). */
  access?: RulesInput<FileAction>;
}

/** A bucket found while compiling, for define-schema to place under `buckets`. */
export interface BucketDecl {
  name: string;
  path: PathSegment[];
  bucket: BucketIR;
}

export const DEFAULT_BUCKET_BYTES = 10 * 1024 * 1024;

const UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

/** '20MB' -> 20971520; a number passes through. NaN for anything else (validation names it). */
export function parseSize(size: number | string): number {
  if (typeof size === 'number') return size;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(B|KB|MB|GB)\s*$/i.exec(size);
  return match ? Math.round(Number(match[1]) * UNITS[match[2].toUpperCase()]) : Number.NaN;
}

export function bucketIR(options: BucketOptions, ownedBy: string | null): BucketIR {
  return {
    maxBytes: options.maxSize === undefined ? DEFAULT_BUCKET_BYTES : parseSize(options.maxSize),
    contentTypes: options.accept ? [...options.accept] : ['*/*'],
    access: options.access ? parseAccessRules(options.access) : null,
    ownedBy,
  };
}
