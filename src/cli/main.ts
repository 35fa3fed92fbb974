/** Dispatch: finds the command, parses its flags strictly with node:util parseArgs, and maps failures to exit codes. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DataDirInUseError } from '../db/data-dir-lock.js';
import { DataDirNotPrivateError } from '../db/private-files.js';
import { packageRoot } from '../db/paths.js';
import { type CliIO, type Command, processIO } from './command.js';
import { appsCreate, appsList } from './commands/apps.js';
import { backup, restore } from './commands/backup.js';
import { budget, budgetSet, walletCredit } from './commands/budget.js';
import { deploy } from './commands/deploy.js';
import { dev } from './commands/dev.js';
import { devTokenCreate } from './commands/dev-token.js';
import { idp } from './commands/idp.js';
import { init } from './commands/init.js';
import { login, logout, whoami } from './commands/login.js';
import { appsDelete, envDelete, envReset } from './commands/remove.js';
import { typegen } from './commands/typegen.js';
import { migrate } from './commands/migrate.js';
import { publish } from './commands/publish.js';
import { serve } from './commands/serve.js';
import { testSession } from './commands/test-session.js';
import { CliError, type Output, createOutput, reportError, usageError } from './output.js';

const COMMANDS: Command[] = [
  serve,
  idp,
  migrate,
  devTokenCreate,
  init,
  login,
  logout,
  whoami,
  appsCreate,
  appsList,
  appsDelete,
  deploy,
  envDelete,
  envReset,
  typegen,
  publish,
  dev,
  testSession,
  budget,
  budgetSet,
  walletCredit,
  backup,
  restore,
];

const COMMON_OPTIONS = `Common options:
  --json       Print exactly one JSON object on stdout (errors too: { "error", "message" }).
  -h, --help   Show this help.`;

/** This package's version, from its package.json. */
export function version(): string {
  return (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Runs one command line; `env` and `io` default to this process's (tests pass their own). Returns the exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Partial<CliIO> = {}): Promise<number> {
  const cli: CliIO = { ...processIO(), ...io };
  // Known before parsing, so even a flag error is reported in the format the caller asked for.
  const json = argv.includes('--json');
  const out = createOutput(json, cli);
  let command: Command | undefined;
  try {
    if (argv[0] === '--version' || argv[0] === '-v') {
      out.result({ version: version() }, `gatehouse ${version()}`);
      return 0;
    }
    // `gatehouse help deploy` is `gatehouse deploy --help` (and `help apps` lists the apps commands).
    if (argv[0] === 'help' && argv.length > 1) argv = [...argv.slice(1), '--help'];
    command = findCommand(argv);
    if (!command) return withoutCommand(argv, out);

    const { values, positionals } = parse(command, argv.slice(command.name.split(' ').length));
    if (values.help) {
      out.result({ usage: commandHelp(command) }, commandHelp(command));
      return 0;
    }
    const { min, max } = command.positionals ?? { min: 0, max: 0 };
    if (positionals.length < min) throw usageError(`missing argument ${command.positionals?.usage}.`);
    if (positionals.length > max) throw usageError(`unexpected argument '${positionals[max]}'.`);

    await command.run({ values, positionals, env, out, io: cli });
    return 0;
  } catch (error) {
    if (command && error instanceof CliError && error.code === 'usage') {
      error.message += `\nRun 'gatehouse ${command.name} --help' for usage.`;
    }
    // The embedded database is held by another process, or others could write it: the message says what to do.
    if (error instanceof DataDirInUseError || error instanceof DataDirNotPrivateError)
      return reportError(new CliError(error.code, error.message), json, cli);
    return reportError(error, json, cli);
  }
}

/** The command whose words the arguments start with ('apps create x' -> 'apps create'). */
function findCommand(argv: string[]): Command | undefined {
  // The longest matching name wins: `budget set ...` is not `budget` with an argument.
  const matching = COMMANDS.filter(c => c.name.split(' ').every((word, i) => argv[i] === word));
  return matching.sort((a, b) => b.name.length - a.name.length)[0];
}

/** `gatehouse`, `gatehouse --help`, `gatehouse apps`, `gatehouse apps --help`, or an unknown command. */
function withoutCommand(argv: string[], out: Output): number {
  const group = argv[0] === 'help' || argv[0]?.startsWith('-') ? undefined : argv[0];
  if (group && !COMMANDS.some(c => c.name.split(' ')[0] === group)) {
    throw usageError(`unknown command '${group}'. Run 'gatehouse --help' for the list.`);
  }
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    out.result({ usage: overview(group) }, overview(group));
    return 0;
  }
  throw usageError(group ? `'gatehouse ${group}' needs a subcommand.\n${overview(group)}` : `a command is required.\n${overview()}`);
}

function parse(command: Command, args: string[]) {
  try {
    return parseArgs({
      args,
      options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // parseArgs explains how to pass a dash-led positional at length; the first sentence is the point.
    throw usageError((error as Error).message.split('. ')[0].replace(/\.?$/, '.'));
  }
}

function usageLine(command: Command): string {
  const positional = command.positionals ? ` ${command.positionals.usage}` : '';
  return `Usage: gatehouse ${command.name}${positional} [options]`;
}

function commandHelp(command: Command): string {
  return [usageLine(command), '', command.summary, '', command.help.trimEnd(), '', COMMON_OPTIONS].join('\n');
}

function overview(group?: string): string {
  const shown = COMMANDS.filter(c => !group || c.name.split(' ')[0] === group);
  const width = Math.max(...shown.map(c => c.name.length));
  return [
    'Usage: gatehouse <command> [options]',
    '',
    'Commands:',
    ...shown.map(c => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `Run 'gatehouse help <command>' (or 'gatehouse <command> --help') for a command's options;`,
    `'gatehouse --version' prints the version.`,
  ].join('\n');
}
