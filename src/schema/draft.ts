import { issueAt, type PathSegment, type SchemaIssue } from './schema-validation-error.js';

/** Collects what a builder was told and reports misuse the IR cannot express (e.g. a twice-declared column). */
export abstract class Draft {
  private readonly declared = new Set<string>();

  constructor(
    protected readonly path: readonly PathSegment[],
    protected readonly problems: SchemaIssue[],
  ) {}

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
