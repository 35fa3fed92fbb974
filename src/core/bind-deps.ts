/**
 * How a feature's module-level functions become `services.<feature>`: each takes its dependencies
 * as its first argument (`setGrant(deps, caller, ...)`), so it can be imported and tested alone;
 * the composition root (src/services.ts) binds them once to the server's.
 */
import type { ServiceDeps } from './deps.js';

/** `fns` with their first (dependencies) argument bound. */
export type Bound<F> = {
  [K in keyof F]: F[K] extends (deps: never, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/** Binds every function of `fns` to `deps`: `bound.f(...args)` calls `fns.f(deps, ...args)`. */
export function bindDeps<D, F extends Record<string, (deps: D, ...args: never[]) => unknown>>(deps: D, fns: F): Bound<F> {
  const bound: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(fns)) bound[name] = (...args: never[]) => fn(deps, ...args);
  return bound as Bound<F>;
}

/**
 * The server's dependencies plus a feature's own collaborators. The result reads through to
 * `deps` at each use (it is not a copy), so a dependency replaced on `services.deps` (a test
 * wrapping `transaction`) is the one every feature uses.
 */
export function extendDeps<E extends object>(deps: ServiceDeps, extra: E): ServiceDeps & E {
  return Object.assign(Object.create(deps) as ServiceDeps, extra);
}
