export interface SchemaIssue {
  /** Where the problem is, e.g. `tables.messages.indexes[0][1]` or `resources.room.grant.writer`. */
  path: string;
  message: string;
}

export type PathSegment = string | number;

/** Every problem in a schema at once, so an author fixes them in one pass rather than one per run. */
export class SchemaValidationError extends Error {
  readonly issues: SchemaIssue[];

  constructor(issues: SchemaIssue[]) {
    super(describeIssues(issues));
    this.name = 'SchemaValidationError';
    this.issues = issues;
  }
}

function describeIssues(issues: SchemaIssue[]): string {
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
  const lines = issues.map(({ path, message }) => `  - ${path || '(root)'}: ${message}`);
  return [`Invalid app schema (${count}):`, ...lines].join('\n');
}

const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;

/** `['tables', 'my table', 'indexes', 0]` -> `tables["my table"].indexes[0]`. */
export function formatPath(segments: readonly PathSegment[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) path += path ? `.${segment}` : segment;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

export function issueAt(segments: readonly PathSegment[], message: string): SchemaIssue {
  return { path: formatPath(segments), message };
}
