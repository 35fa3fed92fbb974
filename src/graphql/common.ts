/** Scalars, enums and small shared types of the GraphQL API. */
import { GraphQLError, Kind } from 'graphql';
import { z } from 'zod';
import { parseInput } from '../errors.js';
import { ROLES } from '../core/roles.rules.js';
import { VISIBILITY_NAMES } from '../membership/visibility.rules.js';
import { builder } from './builder.js';

builder.scalarType('DateTime', {
  description: 'An ISO-8601 timestamp in UTC.',
  serialize: value => (value instanceof Date ? value : new Date(value as string)).toISOString(),
  parseValue: value => {
    const date = new Date(value as string);
    if (typeof value !== 'string' || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO-8601 string.');
    return date;
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: value => value,
  parseValue: value => value,
  parseLiteral: function parse(ast): unknown {
    switch (ast.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return ast.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(ast.value);
      case Kind.NULL:
        return null;
      case Kind.LIST:
        return ast.values.map(v => parse(v));
      case Kind.OBJECT:
        return Object.fromEntries(ast.fields.map(f => [f.name.value, parse(f.value)]));
      default:
        throw new GraphQLError('JSON literals cannot contain variables.');
    }
  },
});

export const RoleEnum = builder.enumType('Role', { values: ROLES });
export const MembershipStateEnum = builder.enumType('MembershipState', { values: ['active', 'invited', 'requested'] as const });
export const StoredVisibilityEnum = builder.enumType('Visibility', {
  description: 'Stored visibility: members, or public (unlisted or discoverable).',
  values: ['members', 'public'] as const,
});
export const VisibilityChoiceEnum = builder.enumType('VisibilityChoice', {
  description: "A type's declared visibility, chosen at create time.",
  values: VISIBILITY_NAMES,
});
export const PrincipalKindEnum = builder.enumType('PrincipalKind', { values: ['user', 'agent'] as const });

/** Argument constraints beyond GraphQL types; failures become 400 invalid_argument naming the field. */
export const ids = {
  resourceId: z.string().min(1, 'must not be empty').max(100, 'is too long'),
  principalId: z.string().min(1, 'must not be empty').max(200, 'is too long'),
  typeName: z.string().min(1, 'must not be empty').max(63, 'is too long'),
};

/** Parses an argument; a failure is a 400 `invalid_argument` whose message names the field. */
export function validate<T extends z.ZodTypeAny>(schema: T, value: unknown, field: string): z.output<T> {
  return parseInput(schema, value, field) as z.output<T>;
}

export const OkRef = builder.objectRef<{ ok: true }>('Ok').implement({
  fields: t => ({ ok: t.boolean({ resolve: () => true }) }),
});
