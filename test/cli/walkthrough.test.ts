/**
 * Issue #24 item 29: the README pastes. Every `sh` block of README.md runs in order, as pasted, in
 * one bash shell (the walkthrough's variables and `api` helper carry over, as they would in a
 * reader's terminal), against a fresh server that the walkthrough's own block starts on a fresh
 * DATA_DIR. A block that cannot run here says why in its info string, `sh # not run: <why>` (an
 * external provider, a browser, a foreground server, another project): anyone adding a `sh` block
 * to the README either makes it paste after the ones before it or marks it so.
 *
 * The run uses `set -euo pipefail`, which a reader's shell does not: a step that fails, or a
 * variable an earlier block did not set, fails the test at that block. Lines meant to be refused
 * say so with `|| echo …`. examples/walkthrough.sh is the walkthrough's two blocks verbatim.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = await readFile(path.join(root, 'README.md'), 'utf8');
const script = await readFile(path.join(root, 'examples', 'walkthrough.sh'), 'utf8');

interface Block {
  /** 1-based, in README order, counting every shell block. */
  number: number;
  line: number;
  code: string;
  /** Why it is not run, when it says so. */
  notRun: string | null;
  info: string;
}

/** The README's fenced `sh` (or `bash`) blocks, in order. */
function shellBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const match of markdown.matchAll(/^```(sh|bash)\b([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const rest = match[2].trim();
    blocks.push({
      number: blocks.length + 1,
      line: markdown.slice(0, match.index).split('\n').length,
      code: match[3],
      notRun: /^# not run: (.+)$/.exec(rest)?.[1] ?? null,
      info: rest,
    });
  }
  return blocks;
}

const blocks = shellBlocks(readme);
/** Whether a block's commands (comments aside) run npm or npx. */
const runsNpm = (code: string) => /(^|[\s;&|(])(npm|npx)\s/m.test(code.replace(/(^|\s)#.*$/gm, ''));
const NOT_LINKED = new Set(['.git', 'data', 'dist', 'gatehouse.log', 'node_modules', 'package.json', 'package-lock.json']);
const marked = (name: 'helpers' | 'walkthrough') => new RegExp(`# >>> ${name}[^\\n]*\\n([\\s\\S]*?)# <<< ${name}`).exec(script)?.[1];

describe('the README walkthrough and examples/walkthrough.sh', () => {
  it("the script is the README's helpers and steps, verbatim", () => {
    for (const part of ['helpers', 'walkthrough'] as const) {
      const code = marked(part);
      expect(code, part).toBeTruthy();
      expect(
        blocks.some(b => b.code === code && !b.notRun),
        `README has the script's ${part} as a block`,
      ).toBe(true);
    }
  });

  it('the script is strict bash (stops at the first error) and parses', () => {
    expect(script).toMatch(/^set -euo pipefail$/m);
    execFileSync('bash', ['-n', path.join(root, 'examples', 'walkthrough.sh')]);
  });

  it('every shell block runs, or says why not in its info string', () => {
    expect(blocks.length).toBeGreaterThan(8);
    // Checked before anything runs: npm here would work on the shared installed tree.
    const npm = blocks.filter(b => !b.notRun && runsNpm(b.code)).map(b => `README.md:${b.line}`);
    expect(npm, 'a block that runs npm or npx is marked # not run').toEqual([]);
    const unclear = blocks.filter(b => b.info !== '' && !b.notRun).map(b => `README.md:${b.line} \`\`\`sh ${b.info}`);
    expect(unclear, 'an info string after sh is either nothing or "# not run: <why>"').toEqual([]);
  });
});

/** A port free now: the OS picks it; the README's server takes it moments later. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise(resolve => server.close(resolve));
  return port;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('every sh block of README.md, pasted in order into one shell, against a fresh server', () => {
  let work: string;
  let dataDir: string;
  let run: { code: number | null; stdout: string; stderr: string };
  let serverPid: number | null = null;

  beforeAll(async () => {
    const npm = blocks.find(b => !b.notRun && runsNpm(b.code));
    if (npm) throw new Error(`README.md:${npm.line} runs npm or npx: mark it \`\`\`sh # not run: <why>, or it would reach the installed tree.`);
    for (const tool of ['curl', 'jq']) {
      try {
        execFileSync('sh', ['-c', `command -v ${tool}`]);
      } catch {
        throw new Error(`The README's blocks need ${tool}: install it (apt-get install ${tool}).`);
      }
    }
    // A directory of its own, with the repository's files linked in: what the blocks write
    // (gatehouse.log, the data directory) stays out of the worktree. Not node_modules nor the
    // package files: `node bin/…` finds them through the link's target, and an npm command in a
    // block (it should be marked # not run) must not reach the installed tree: `npm ci` empties
    // node_modules through a link to it before installing again.
    work = await mkdtemp(path.join(tmpdir(), 'gatehouse-readme-'));
    for (const entry of await readdir(root)) {
      if (NOT_LINKED.has(entry)) continue;
      await symlink(path.join(root, entry), path.join(work, entry));
    }
    dataDir = path.join(work, 'data');
    const body = blocks
      .filter(b => !b.notRun)
      .map(b => `block=${b.number}; line=${b.line}\n${b.code}`)
      .join('\n');
    const shell = [
      'set -euo pipefail',
      `trap 'echo "README block $block (README.md:$line) failed at: $BASH_COMMAND" >&2' ERR`,
      // A block that installs or starts through npm is one to mark # not run, never one to run here.
      ...['npm', 'npx'].map(tool => `${tool}() { echo "README block $block (README.md:$line) runs ${tool}: mark it # not run" >&2; return 97; }`),
      body,
    ].join('\n');
    const port = await freePort();
    // The app quick start's `gatehouse dev` takes a free port too (the README's default is 5180).
    const devPort = await freePort();
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TMPDIR: tmpdir(),
      PORT: String(port),
      DEV_PORT: String(devPort),
      DATA_DIR: dataDir,
    };
    run = await new Promise((resolve, reject) => {
      const child = spawn('bash', ['-c', shell], { cwd: work, env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', chunk => (stdout += chunk));
      child.stderr.on('data', chunk => (stderr += chunk));
      child.on('error', reject);
      child.on('close', code => resolve({ code, stdout, stderr }));
    });
    serverPid = JSON.parse(await readFile(path.join(dataDir, 'gatehouse.lock'), 'utf8').catch(() => 'null'))?.pid ?? null;
  }, 600_000);

  afterAll(async () => {
    // The server the README's blocks started (its pid in the lock): stopped, and its lock released.
    if (serverPid && alive(serverPid)) {
      process.kill(serverPid, 'SIGTERM');
      for (let i = 0; i < 100 && alive(serverPid); i++) await new Promise(resolve => setTimeout(resolve, 100));
    }
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('runs them all to the end', () => {
    expect(run.code, `${run.stderr.slice(-3000)}\n--- stdout ---\n${run.stdout.slice(-2000)}`).toBe(0);
  });

  it("item 28: the walkthrough's last line names the server it started, the one holding DATA_DIR", () => {
    expect(serverPid).toEqual(expect.any(Number));
    expect(run.stdout).toContain(`Stop it with: kill ${serverPid}\n`);
    // Every gatehouse command said which server or database it used.
    expect(run.stderr).toMatch(/gatehouse: developer token for you@example\.com created through the server at http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/);
    expect(run.stderr).toMatch(/gatehouse: server http:\/\/127\.0\.0\.1:\d+ \(GATEHOUSE_URL\)/);
  });

  it('shows what the sections after the walkthrough say it shows', () => {
    // The walkthrough: Bob an active writer of the team.
    expect(run.stdout).toMatch(/"role": "writer",\s+"state": "active"/);
    // Rooms: Alice holds nothing in Planning; a room holding a row is not deleted.
    expect(run.stdout).toContain('Refused: Alice owns the team but holds no grant in Planning.');
    expect(run.stdout).toContain('Refused: a room is not deleted while a row sits in it.');
    expect(run.stderr).toMatch(/DELETE \/v1\/resources\/\S+\/rooms\/\S+ answered 409: \{"error":"room_not_empty"/);
    // The row store: Alice reads Bob's event.
    expect(run.stdout).toMatch(/\{"rows":\[\{[^\n]*"kind":"joined"/);
    // GraphQL limits: six pages of 1000 refused, six of 100 pass.
    expect(run.stdout).toContain('"too_many_rows"\n{"nextCursor":null}\n');
    // Files: a range, then a 304 for the current ETag.
    expect(run.stdout).toMatch(/^first\n304\n/m);
    // Billing: the budget was raised.
    expect(run.stdout).toContain('$10.00 a month');
    // The app quick start: `gatehouse dev` serves the starter page with the config tag, names its
    // gateway (the environment users sign in to), and serves the SDK from the same origin.
    expect(run.stdout).toContain('<script src="/_osg/config.js"></script>\n');
    expect(run.stdout).toMatch(/^\{"gateway":"http:\/\/localhost:\d+\/_osg","env":"prod"\}$/m);
    expect(run.stdout).toContain('the SDK from the same origin: 200 text/javascript; charset=utf-8\n');
  });
});
