/** The per-type rules a deployment's schema gives the membership logic. */
import { DEFAULT_GRANT, type GrantCeilings, type Role } from '../core/roles.rules.js';
import { fail } from '../errors.js';
import type { TypeRules } from './membership.rules.js';
import type { VisibilityName } from './visibility.rules.js';

export interface ResourceTypeRules extends TypeRules {
  visibility: { default: VisibilityName; allow: VisibilityName[] };
}

/** Reserved types (`_app`) and types dropped from a later schema fall back to the defaults (docs/api.md §5.5). */
const FALLBACK: ResourceTypeRules = {
  grant: DEFAULT_GRANT,
  defaultRole: 'reader',
  visibility: { default: 'members', allow: ['members'] },
};

/** What the rules read of a deployment: its schema's resource types (SchemaIR, src/schema/ir.ts; DeploymentInfo passes). */
export interface ResourceTypeSource {
  schema: { resources: Record<string, { grant: GrantCeilings; defaultRole: Role; visibility: ResourceTypeRules['visibility'] }> };
}

export function typeRules(deployment: ResourceTypeSource, type: string): ResourceTypeRules {
  const def = deployment.schema.resources[type];
  if (!def) return FALLBACK;
  return { grant: { ...DEFAULT_GRANT, ...def.grant }, defaultRole: def.defaultRole, visibility: def.visibility };
}

export const isReservedType = (type: string) => type.startsWith('_');

/** `_`-prefixed types belong to the platform: nobody creates them or asks their way in. */
export const reservedTypeError = (type: string, action: 'create' | 'request access to') =>
  fail('reserved_type', `Resource types starting with '_' (like ${type}) are reserved: you cannot ${action} them through the API.`);
