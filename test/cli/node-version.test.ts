/**
 * Below package.json's `engines.node` the bin refuses to start, before anything loads, and says how
 * to get a supported Node. The machine's /usr/bin/node is older (Node 20 here): the real bin runs
 * on it and must fail with that message, not start a server nor die of a syntax error.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module without types (it runs before anything else loads).
import { minimumNode, supports, unsupportedNodeMessage } from '../../bin/node-version.mjs';

const bin = path.resolve('bin/gatehouse.mjs');
const OLD_NODE = '/usr/bin/node';
const execFileAsync = promisify(execFile);

async function versionOf(node: string): Promise<string | null> {
  if (!existsSync(node)) return null;
  return (await execFileAsync(node, ['--version'])).stdout.trim();
}

describe('the supported range', () => {
  it.each([
    ['v22.12.0', true],
    ['v22.21.1', true],
    ['v23.0.0', true],
    ['v24.1.0', true],
    ['v22.11.0', false],
    ['v20.20.2', false],
    ['v18.19.0', false],
  ])('%s supported: %s', (version, expected) => {
    expect(supports(version, minimumNode('>=22.12'))).toBe(expected);
  });

  it('the message names both versions and three ways to get a supported Node', () => {
    const message = unsupportedNodeMessage('v20.20.2', [22, 12], '/usr/bin/node');
    expect(message).toContain('Gatehouse needs Node.js 22.12 or later; this is Node.js v20.20.2 (/usr/bin/node).');
    expect(message).toContain('nvm install 22');
    expect(message).toContain('https://nodejs.org/en/download');
    if (process.platform !== 'win32') expect(message).toMatch(/npm install --prefix ~\/\.node22 node-\w+-\w+@22/);
  });
});

const oldVersion = await versionOf(OLD_NODE);
const runsOld = oldVersion !== null && !supports(oldVersion, [22, 12]);
if (!runsOld) console.warn(`${OLD_NODE} is ${oldVersion ?? 'missing'}, not an unsupported Node: the real-bin refusal test is skipped.`);

describe.skipIf(!runsOld)(`the real bin on ${OLD_NODE} (${oldVersion})`, () => {
  it.each([['serve'], ['--version'], ['dev-token', 'create']])(
    'gatehouse %s refuses with the message, exit 1, and touches nothing',
    async (...args) => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-old-node-'));
      try {
        const failed = await execFileAsync(OLD_NODE, [bin, ...args], {
          env: { ...process.env, DATA_DIR: dataDir, PORT: '0', GATEHOUSE_DEV_TOKEN: '' },
          timeout: 30_000,
        }).then(
          () => null,
          (error: { code: number; stdout: string; stderr: string }) => error,
        );
        expect(failed).not.toBeNull();
        expect(failed!.code).toBe(1);
        expect(failed!.stdout).toBe('');
        expect(failed!.stderr).toContain(`Gatehouse needs Node.js 22.12 or later; this is Node.js ${oldVersion} (${OLD_NODE}).`);
        expect(failed!.stderr).toContain('nvm install 22');
        expect(failed!.stderr).not.toMatch(/SyntaxError|at .*:\d+:\d+/);
        expect(await readdir(dataDir)).toEqual([]);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
