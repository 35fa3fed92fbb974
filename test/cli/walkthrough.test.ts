/**
 * The README walkthrough is examples/walkthrough.sh: the README shows the script's steps verbatim,
 * so what a reader sees is what runs. (The script itself was run end to end, twice, on a fresh copy.)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const script = read('examples/walkthrough.sh');
const readme = read('README.md');

describe('the README walkthrough', () => {
  it('pastes one line that runs the script and stops on a failed install', () => {
    expect(readme).toContain('```sh\n{ test -d node_modules || npm ci; } && bash examples/walkthrough.sh\n```');
  });

  it("shows the script's steps exactly", () => {
    const steps = /# >>> walkthrough[^\n]*\n([\s\S]*?)# <<< walkthrough/.exec(script)?.[1];
    expect(steps).toBeTruthy();
    expect(readme).toContain(`\`\`\`sh\n${steps}\`\`\``);
  });

  it('is strict bash (stops at the first error) and parses', () => {
    expect(script).toMatch(/^set -euo pipefail$/m);
    execFileSync('bash', ['-n', new URL('../../examples/walkthrough.sh', import.meta.url).pathname]);
  });
});
