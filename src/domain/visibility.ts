/** Visibility as declared in the schema and as stored per instance (spec 2.1). */
export const VISIBILITY_NAMES = ['members', 'unlisted', 'discoverable'] as const;
export type VisibilityName = (typeof VISIBILITY_NAMES)[number];
export type StoredVisibility = 'members' | 'public';

export interface VisibilityPair {
  visibility: StoredVisibility;
  discoverable: boolean;
}

const PAIRS: Record<VisibilityName, VisibilityPair> = {
  members: { visibility: 'members', discoverable: false },
  unlisted: { visibility: 'public', discoverable: false },
  discoverable: { visibility: 'public', discoverable: true },
};

export const isVisibilityName = (value: unknown): value is VisibilityName =>
  typeof value === 'string' && Object.hasOwn(PAIRS, value);

export const compileVisibility = (name: VisibilityName): VisibilityPair => PAIRS[name];

/** Public resources (unlisted or discoverable) can be viewed by id and self-joined. */
export const isPublic = (pair: { visibility: StoredVisibility }): boolean => pair.visibility === 'public';
