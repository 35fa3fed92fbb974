/** The CLI's own surface, in-process (no child process, no server): --version and `help <command>`. */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

let stdout: string;
let stderr: string;
beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation(chunk => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation(chunk => ((stderr += String(chunk)), true));
});
afterEach(() => vi.restoreAllMocks());

describe('gatehouse --version', () => {
  it.each([['--version'], ['-v']])('%s prints the package version', async flag => {
    expect(await main([flag], {})).toBe(0);
    expect(stdout).toBe(`gatehouse ${version}\n`);
  });

  it('--version --json prints { version }', async () => {
    expect(await main(['--version', '--json'], {})).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ version });
  });
});

describe('gatehouse help <command>', () => {
  it('help deploy is deploy --help', async () => {
    expect(await main(['help', 'deploy'], {})).toBe(0);
    const viaHelp = stdout;
    stdout = '';
    expect(await main(['deploy', '--help'], {})).toBe(0);
    expect(viaHelp).toBe(stdout);
    expect(viaHelp).toMatch(/^Usage: gatehouse deploy \[schemaFile\] \[options\]/);
  });

  it('help apps create shows that command; help apps lists the group', async () => {
    expect(await main(['help', 'apps', 'create'], {})).toBe(0);
    expect(stdout).toMatch(/^Usage: gatehouse apps create <name> \[options\]/);
    stdout = '';
    expect(await main(['help', 'apps'], {})).toBe(0);
    expect(stdout).toContain('apps list');
    expect(stdout).not.toContain('deploy');
  });

  it('help alone lists every command and mentions --version', async () => {
    expect(await main(['help'], {})).toBe(0);
    expect(stdout).toContain('dev-token create');
    expect(stdout).toContain('gatehouse --version');
  });

  it('help of an unknown command is a usage error', async () => {
    expect(await main(['help', 'frobnicate'], {})).toBe(2);
    expect(stderr).toMatch(/unknown command 'frobnicate'/);
  });
});
