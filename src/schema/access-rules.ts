/**
 * The one parser of access rules as apps write them, for tables (`table.access()`, shares and
 * owns) and file buckets (`r.files(name, { access })`) alike: each action takes one rule name or a
 * list of them (`upload: 'writer'`, `update: ['creator', 'admin']`); the IR always holds lists.
 */
import type { AccessRule } from './ir.js';

/** Rules per action `A`: one rule name or a list of them. */
export type RulesInput<A extends string> = { readonly [K in A]?: AccessRule | readonly AccessRule[] };

/**
 * Lists every rule (a single name becomes a one-item list) and copies, so later changes to the
 * author's arrays cannot reach the IR. Anything else (a number, an object) is kept as written for
 * validation to name.
 */
export function parseAccessRules<A extends string>(rules: RulesInput<A>): Partial<Record<A, AccessRule[]>> {
  const entries = Object.entries(rules).map(([action, list]) => [action, typeof list === 'string' ? [list] : Array.isArray(list) ? [...list] : list]);
  return Object.fromEntries(entries) as Partial<Record<A, AccessRule[]>>;
}
