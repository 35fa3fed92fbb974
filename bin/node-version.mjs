/**
 * The Node.js versions Gatehouse runs on are package.json's `engines.node` (`>=MAJOR.MINOR`). Below
 * it the server started and then misbehaved (no async context frame, a failing re-exec), so the
 * command refuses to start and says how to get a supported Node. Plain JavaScript that every Node
 * still in use parses: it runs before anything else loads.
 */
import { readFileSync } from 'node:fs';

/** `>=22.12` -> [22, 12]. */
export function minimumNode(engines) {
  const match = /^>=\s*(\d+)(?:\.(\d+))?/.exec(engines ?? '');
  if (!match) throw new Error(`package.json engines.node is not ">=MAJOR.MINOR": ${engines}`);
  return [Number(match[1]), Number(match[2] ?? 0)];
}

export function supports(version, [major, minor]) {
  const [have, haveMinor] = version.replace(/^v/, '').split('.').map(Number);
  return have > major || (have === major && haveMinor >= minor);
}

/** npm ships Node itself as a package per platform (what CI installs when the machine's Node is older). */
function npmNodePackage(major) {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  return `node-${platform}-${process.arch}@${major}`;
}

export function unsupportedNodeMessage(version, [major, minor], execPath = process.execPath) {
  const packageName = npmNodePackage(major);
  const fromNpm = `npm install --prefix ~/.node${major} ${packageName} && export PATH=~/.node${major}/node_modules/${packageName.replace(/@\d+$/, '')}/bin:$PATH`;
  return [
    `Gatehouse needs Node.js ${major}.${minor} or later; this is Node.js ${version} (${execPath}).`,
    `Get Node.js ${major} one of these ways, then run the command again:`,
    `  - with nvm:  nvm install ${major} && nvm use ${major}`,
    ...(process.platform === 'win32' ? [] : [`  - from npm, into your home directory:  ${fromNpm}`]),
    '  - an installer or package from https://nodejs.org/en/download',
  ].join('\n');
}

export function refuseUnsupportedNode() {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const minimum = minimumNode(manifest.engines?.node);
  if (supports(process.version, minimum)) return;
  process.stderr.write(`${unsupportedNodeMessage(process.version, minimum)}\n`);
  process.exit(1);
}
