import { issueAt, type PathSegment, type SchemaIssue } from './schema-validation-error.js';

/** Names a runtime or a tool may look up on any object (a thenable check, JSON, inspection): never a misspelt call. */
const NOT_BUILDER_CALLS = new Set(['then', 'toJSON', 'constructor', 'asymmetricMatch', 'nodeType', '$$typeof', 'inspect']);

/** Collects what a builder was told and reports misuse the IR cannot express (e.g. a twice-declared column). */
export abstract class Draft {
  private readonly declared = new Set<string>();

  constructor(
    protected readonly path: readonly PathSegment[],
    protected readonly problems: SchemaIssue[],
  ) {}

  /**
   * What the author's callback is given: this draft, behind a proxy that turns a call of a method
   * the builder lacks (`t.string('title')`, a misspelling) into a problem naming the methods it has,
   * where JavaScript would only say "t.string is not a function". The chain goes on, so every
   * problem is still reported at once.
   */
  builder(): this {
    const { kind, methods } = this.describe();
    return new Proxy(this, {
      get: (target, name, receiver) => {
        if (typeof name !== 'string' || name in target || NOT_BUILDER_CALLS.has(name)) return Reflect.get(target, name, receiver);
        return () => {
          target.problem([], `${name}() is not a ${kind} method; ${methods}`);
          target.unknownMethod();
          return receiver;
        };
      },
    });
  }

  /** The builder's name and its methods, for the problem a misspelt call reports. */
  protected abstract describe(): { kind: string; methods: string };

  /** After a call the builder lacks: forget what it was doing (a column's modifiers apply to no known column). */
  protected unknownMethod(): void {}

  protected problem(at: readonly PathSegment[], message: string): void {
    this.problems.push(issueAt([...this.path, ...at], message));
  }

  /** Declarations such as access() hold one value; a second call is almost certainly a mistake. */
  protected once(method: string, at: readonly PathSegment[]): boolean {
    if (this.declared.has(method)) {
      this.problem(at, `${method}() is declared twice; declare it once`);
      return false;
    }
    this.declared.add(method);
    return true;
  }
}
