/**
 * The fuzz: requests generated from `/openapi.json` (rest-requests.ts) and GraphQL documents
 * generated from the schema (graphql-requests.ts), sent over real sockets to a seeded server
 * (target.ts), each answer judged by three rules:
 *
 * 1. `5xx`: no answer is a server error, and no GraphQL error says status 5xx either (a masked
 *    `internal` inside a 200 is a 500 all the same).
 * 2. `no code`: every 4xx has a JSON body with a code: REST `{ error, message }`, GraphQL
 *    `errors[].extensions.{ code, status }`; an HTML page only where the document says the route
 *    answers one at that status (the invite pages).
 * 3. `undocumented`: every (route, status, code) observed is in that route's OpenAPI error list
 *    (docs/api.md §8.2 for /graphql, which has no OpenAPI operation), so the document cannot
 *    drift from what the routes answer.
 */
import { readFileSync } from 'node:fs';
import { graphqlRequest, publishedSchema, rootFields } from './graphql-requests.js';
import { type FuzzRequest, operationsOf, restRequest } from './rest-requests.js';
import type { FuzzTarget } from './target.js';
import { seeded } from './values.js';

type Json = any;

export interface FuzzOptions {
  requests: number;
  seed: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** The share of GraphQL requests (the rest are generated from the OpenAPI document). */
  graphqlShare?: number;
  /** Sends only the requests whose place in the sequence passes (to replay a finding and what led to it). */
  only?: (index: number) => boolean;
  /** Hears each answer: the request's place in the sequence, its status (0: none) and how long it took. */
  trace?: (index: number, request: FuzzRequest, status: number, ms: number) => void;
}

export interface Finding {
  rule: '5xx' | 'no code' | 'undocumented' | 'no answer';
  /** `POST /v1/resources/{id}/invite`, or `/graphql` with the root field. */
  where: string;
  status: number;
  code: string | null;
  request: FuzzRequest;
  body: string;
  /** Its place in the seed's sequence of requests. */
  index: number;
}

export interface FuzzReport {
  sent: number;
  /** Requests the client could not send at all (a header value fetch refuses); not counted in `sent`. */
  unsendable: number;
  byStatus: Record<number, number>;
  /** Every distinct `where status code` observed, with its count. */
  observed: Map<string, number>;
  findings: Finding[];
}

/** docs/api.md §8.2: each code and the statuses it is documented with. */
export function documentedCodes(): Map<string, number[]> {
  const api = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const section = api.slice(api.indexOf('### 8.2 Codes'), api.indexOf('## 9. Limits'));
  const statuses = new Map<string, number[]>();
  for (const [, status, codes] of section.matchAll(/^\|\s*(\d{3})\s*\|([^|]+)\|/gm)) {
    for (const [, code] of codes.matchAll(/`([A-Za-z_]+)`/g)) statuses.set(code, [...(statuses.get(code) ?? []), Number(status)]);
  }
  return statuses;
}

/** An operation's documented answers: the error codes by status, and the statuses answered with an HTML page. */
export function documentedAnswers(spec: Json) {
  const codes = new Map<number, Set<string>>();
  const pages = new Set<number>();
  for (const [status, response] of Object.entries<Json>(spec.responses ?? {})) {
    const content = response.content ?? {};
    if (content['text/html']) pages.add(Number(status));
    const schema = content['application/json']?.schema;
    const error = schema?.allOf ?? schema?.oneOf?.find((s: Json) => s.allOf)?.allOf;
    const listed: string[] = error?.[1]?.properties?.error?.enum ?? [];
    codes.set(Number(status), new Set(listed));
  }
  return { codes, pages };
}

const isJson = (type: string) => /^application\/(graphql-response\+)?json\b/.test(type);

/** The area a request belongs to, for the report (whose code the finding is in). */
export function areaOf(finding: Pick<Finding, 'where'>): string {
  const w = finding.where;
  if (/\/v1\/db\/|dbQuery|dbSelect|dbBatch|rowsLive|\brows?\b/.test(w)) return 'rows';
  if (/\/v1\/files|files|File/.test(w)) return 'files';
  if (/rooms|Room/.test(w)) return 'rooms';
  if (/Live\b|subscription/.test(w)) return 'feeds';
  if (/agents|Agent/.test(w)) return 'agents';
  if (/budget|wallet|Budget|Wallet/.test(w)) return 'metering';
  if (/^(GET|POST) \/(auth|_invite)/.test(w)) return 'gateway auth';
  return 'api';
}

/** Reads an SSE answer until its first event or a short while, then lets go (a live subscription never ends). */
async function readEventStream(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = setTimeout(() => reader.cancel().catch(() => undefined), 300);
  try {
    while (!/\n\n/.test(text.replace(/^:[^\n]*\n+/gm, ''))) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // Cancelled at the deadline: nothing more came.
  } finally {
    clearTimeout(deadline);
    await reader.cancel().catch(() => undefined);
  }
  return text;
}

export async function runFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  const random = seeded(options.seed);
  const doc = await (await fetch(`${target.url}/openapi.json`)).json();
  const operations = operationsOf(doc);
  // The row store's two routes take any JSON in values and where: they get a larger share.
  const weighted = operations.flatMap(op => (op.path.startsWith('/v1/db/') ? Array(8).fill(op) : op.spec.requestBody ? [op, op] : [op]));
  const answers = new Map(operations.map(op => [`${op.method} ${op.path}`, documentedAnswers(op.spec)]));
  const statuses = documentedCodes();
  const roots = rootFields(publishedSchema());
  const report: FuzzReport = { sent: 0, unsendable: 0, byStatus: {}, observed: new Map(), findings: [] };

  // Generated up front from the one seeded sequence: the same seed makes the same requests whatever the concurrency.
  const requests: FuzzRequest[] = [];
  for (let i = 0; i < options.requests; i++) {
    requests.push(
      random.chance(options.graphqlShare ?? 0.35) ? graphqlRequest(roots, random, target) : restRequest(random.pick(weighted), random, target),
    );
  }

  const indexOf = new Map<FuzzRequest, number>(requests.map((request, index) => [request, index]));
  const statusOf = new Map<FuzzRequest, number>();
  const find = (rule: Finding['rule'], where: string, status: number, code: string | null, request: FuzzRequest, body: string) =>
    report.findings.push({ rule, where, status, code, request, body: body.slice(0, 400), index: indexOf.get(request) ?? -1 });

  /** GraphQL errors: each has a code and a status §8.2 documents for it, and none is a 5xx. */
  function judgeGraphqlErrors(where: string, status: number, payload: Json, request: FuzzRequest, text: string) {
    const errors: Json[] = Array.isArray(payload?.errors) ? payload.errors : [];
    for (const error of errors) {
      const code = error?.extensions?.code;
      const errorStatus = error?.extensions?.status;
      report.observed.set(`${where} ${status} ${code}`, (report.observed.get(`${where} ${status} ${code}`) ?? 0) + 1);
      if (typeof code !== 'string' || typeof errorStatus !== 'number') {
        find('no code', where, status, typeof code === 'string' ? code : null, request, text);
        continue;
      }
      if (errorStatus >= 500) find('5xx', where, errorStatus, code, request, text);
      else if (!statuses.get(code)?.includes(errorStatus)) find('undocumented', where, errorStatus, code, request, text);
    }
    if (status >= 400 && !errors.length) find('no code', where, status, null, request, text);
  }

  async function send(request: FuzzRequest) {
    const started = performance.now();
    await answer(request);
    options.trace?.(indexOf.get(request) ?? -1, request, statusOf.get(request) ?? 0, performance.now() - started);
  }

  /** Sends one request and judges its answer. */
  async function answer(request: FuzzRequest): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`${target.url}${request.target}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(Number(process.env.FUZZ_TIMEOUT_MS ?? 60_000)),
      });
    } catch (error) {
      // fetch refuses some header values before sending (a TypeError): nothing reached the server.
      if (error instanceof TypeError && !(error as { cause?: unknown }).cause) {
        report.unsendable++;
        return;
      }
      report.sent++;
      const where = request.operation ? `${request.operation.method} ${request.operation.path}` : '/graphql';
      find('no answer', where, 0, null, request, String((error as { cause?: unknown }).cause ?? error));
      return;
    }
    report.sent++;
    const { status } = response;
    statusOf.set(request, status);
    report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
    const type = response.headers.get('content-type') ?? '';
    const text = type.startsWith('text/event-stream') ? await readEventStream(response) : await response.text();

    if (!request.operation) {
      const where = `/graphql ${request.note.split(';')[0]}`;
      if (status >= 500) find('5xx', where, status, null, request, text);
      if (type.startsWith('text/event-stream')) {
        // Lines split on LF only: SSE's line ends are CR and LF, and a JSON string may hold U+2028,
        // which a JavaScript regular expression would take for one.
        for (const line of text.split('\n')) {
          if (!line.startsWith('data:')) continue;
          const data = line.slice(5).replace(/^ /, '').replace(/\r$/, '');
          if (!data.trim()) continue; // `complete` carries no data
          try {
            judgeGraphqlErrors(where, status, JSON.parse(data), request, text);
          } catch {
            find('no code', where, status, null, request, text);
          }
        }
        return;
      }
      if (status === 200 && type.startsWith('text/html')) return; // GraphiQL, for a browser's Accept
      let payload: Json = null;
      try {
        payload = isJson(type) ? JSON.parse(text) : null;
      } catch {}
      if (payload === null) {
        if (status >= 400) find('no code', where, status, null, request, text);
        return;
      }
      judgeGraphqlErrors(where, status, payload, request, text);
      return;
    }

    const where = `${request.operation.method} ${request.operation.path}`;
    if (status < 400) return;
    const documented = answers.get(where)!;
    let code: string | null = null;
    if (request.method !== 'HEAD') {
      try {
        const body = isJson(type) ? JSON.parse(text) : null;
        if (typeof body?.error === 'string' && typeof body?.message === 'string') code = body.error;
      } catch {}
    }
    report.observed.set(`${where} ${status} ${code}`, (report.observed.get(`${where} ${status} ${code}`) ?? 0) + 1);
    if (status >= 500) find('5xx', where, status, code, request, text);
    else if (code === null) {
      if (!(type.startsWith('text/html') && documented.pages.has(status))) find('no code', where, status, null, request, text);
    } else if (!documented.codes.get(status)?.has(code)) find('undocumented', where, status, code, request, text);
  }

  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      if (!options.only || options.only(index)) await send(requests[index]);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  return report;
}

/** The findings grouped by what they are (rule, where, status, code), each with a count and one example. */
export function summarize(report: FuzzReport): string {
  const groups = new Map<string, { count: number; example: Finding }>();
  for (const finding of report.findings) {
    const key = `[${areaOf(finding)}] ${finding.rule}: ${finding.where} -> ${finding.status} ${finding.code ?? '(no code)'}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { count: 1, example: finding });
  }
  const lines = [
    `${report.sent} requests (${report.unsendable} unsendable), by status: ${JSON.stringify(report.byStatus)}`,
    `${report.findings.length} findings in ${groups.size} groups`,
  ];
  for (const [key, { count, example }] of [...groups].sort()) {
    const r = example.request;
    lines.push(`${key}  x${count} (first: request #${example.index})`);
    lines.push(`    ${r.method} ${r.target.slice(0, 200)}  (${r.note})`);
    lines.push(`    headers: ${JSON.stringify(r.headers).slice(0, 300)}`);
    if (r.body !== undefined) lines.push(`    body: ${String(r.body).slice(0, 200)}`);
    lines.push(`    answer: ${example.body.slice(0, 300)}`);
  }
  return lines.join('\n');
}
