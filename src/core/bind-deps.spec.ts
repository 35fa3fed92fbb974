import { describe, expect, it } from 'vitest';
import { bindDeps, extendDeps } from './bind-deps.js';
import type { ServiceDeps } from './deps.js';

describe('bindDeps', () => {
  it('calls each function with the dependencies first, then the arguments it is given', () => {
    const greet = (deps: { greeting: string }, name: string, punctuation = '.') => `${deps.greeting}, ${name}${punctuation}`;
    const count = async (deps: { greeting: string }) => deps.greeting.length;
    const bound = bindDeps({ greeting: 'Hello' }, { greet, count });
    expect(bound.greet('Ada')).toBe('Hello, Ada.');
    expect(bound.greet('Ada', '!')).toBe('Hello, Ada!');
    return expect(bound.count()).resolves.toBe(5);
  });
});

describe('extendDeps', () => {
  it("adds a feature's collaborators and reads through to the server's dependencies at each use", async () => {
    const deps = { now: () => new Date(1) } as unknown as ServiceDeps;
    const extended = extendDeps(deps, { apps: 'apps' });
    expect(extended.apps).toBe('apps');
    expect(extended.now().getTime()).toBe(1);
    // A test replacing a dependency on services.deps replaces it for every feature.
    deps.now = () => new Date(2);
    expect(extended.now().getTime()).toBe(2);
  });
});
