/**
 * PostgreSQL's own CPU for the one-statement insert (src/rows/row-fast-insert.sql.ts), measured
 * with pgbench (a C client: the figures are the database's side only, and repeatable):
 *
 *   npx tsx bench/pg-statements.ts [--clients 10] [--seconds 20] [--reps 3] [--variant file.sql]...
 *     [--scripts-dir dir] [--script name=file.sql]...
 *
 * It builds a scratch database from prisma/migrations, seeds one developer paying for one app's
 * dev deployment (100 rooms, each with its owner, a test user, as an active member; an open
 * wallet lease; 200k rows and 200k ledger entries so that indexes are not tiny), and keeps it as a
 * template. Each run copies the template (plus a `--variant`'s SQL, e.g. `ALTER TABLE ... DROP
 * CONSTRAINT ...`), checkpoints, and runs pgbench on one of three scripts, interleaved per rep:
 *
 * - `floor`: the plain `INSERT INTO rows` of the same row;
 * - `unmetered`: the fast insert as the code compiles it, with metering off;
 * - `metered`: the fast insert charging the developer's lease (storage check, ledger entry), as
 *   every insert after a resource's first runs it: its storage payer known (fastInsertPaidBy).
 *
 * The statement's text is the code's (fastInsert compiled with sentinel values, each replaced by
 * a pgbench variable or expression), so the figures follow the code. Measured: backend CPU
 * (utime + stime of pgbench's backends in /proc, so PostgreSQL must run on this machine) over the
 * transactions that completed in the middle of the run (pgbench's per-transaction log), and
 * multixacts created per transaction (hot rows locked FOR KEY SHARE by many at once).
 * `--scripts-dir` writes the three scripts there; `--script` runs one more beside them (with the
 * metered script's -D constants), such as the metered script edited by hand to try a statement
 * before changing the code. The default
 * 10 clients is Gatehouse's pool (DATABASE_POOL_SIZE). Connection: PGHOST, PGPORT, PGUSER (libpq's
 * defaults otherwise). Prints one line per run and a table of medians and minimums.
 *
 * On a shared machine the CPU per transaction moves with everything else running (and the
 * multixact count is the cluster's): compare a variant with the schema of the same reps only.
 *
 * `--perf` also samples pgbench's backends with Linux `perf` (call graphs) over the same window
 * and splits each transaction's CPU by where PostgreSQL spent it (PHASES: the executor's start,
 * run and end, the foreign keys' triggers, index inserts, row locks, commit), so a change can be
 * placed, not only weighed. It needs `perf` and sampling rights (perf_event_paranoid <= 2 for
 * one's own processes, or root).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultMigrationsDir } from '../src/db/paths.js';
import { sqlOver } from '../src/db/sql.js';
import type { EntryValues } from '../src/billing/wallet-leases.service.js';
import { fastInsert, fastInsertPaidBy } from '../src/rows/row-fast-insert.sql.js';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '20' },
    reps: { type: 'string', default: '3' },
    variant: { type: 'string', multiple: true, default: [] },
    keep: { type: 'boolean', default: false },
    'scripts-dir': { type: 'string' },
    script: { type: 'string', multiple: true, default: [] },
    perf: { type: 'boolean', default: false },
  },
});
const clients = Number(args.clients);
const seconds = Number(args.seconds);
const TEMPLATE = `gh_pgstmt_${process.pid}`;
const RUN = `${TEMPLATE}_run`;
const work = mkdtempSync(path.join(os.tmpdir(), 'pg-statements-'));

const psql = (db: string, sql: string) => execFileSync('psql', ['-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', db, '-c', sql], { encoding: 'utf8' }).trim();
const psqlFile = (db: string, file: string) => execFileSync('psql', ['-Xq', '-v', 'ON_ERROR_STOP=1', '-d', db, '-f', file], { stdio: 'pipe' });

const DEV = 'dev_00000000000000000001';
const APP = 'app_00000000000000000001';
const DEP = 'dep_00000000000000000001';
const LEASE = 'wls_00000000000000000001';
const MEMBER_PREFIX = `test:${APP}:u`;
const member = (i: string) => `'${MEMBER_PREFIX}' || ${i}`;
/** The member in a pgbench script: its prefix is a -D variable, since pgbench reads any `:name`, even in a literal, as one. */
const memberOf = (i: string) => `(:mp || ${i})`;
const resource = (i: string) => `'res_' || lpad(${i}::text, 20, '0')`;

const SEED = `
INSERT INTO developers (id, email) VALUES ('${DEV}', 'bench@example.test');
INSERT INTO developers (id, email) SELECT 'dev_x' || i, 'x' || i || '@example.test' FROM generate_series(1, 2000) i;
INSERT INTO apps (id, name, developer_id) VALUES ('${APP}', 'Bench', '${DEV}');
INSERT INTO deployments (id, app_id, env, schema, updated_at) VALUES ('${DEP}', '${APP}', 'dev', '{}', now());
INSERT INTO principals (id, kind, name) SELECT ${member('i')}, 'user', 'User ' || i FROM generate_series(1, 100) i;
INSERT INTO principals (id, kind, name) SELECT 'usr_x' || i, 'user', 'X' || i FROM generate_series(1, 20000) i;
INSERT INTO resources (id, deployment_id, type, name, visibility, discoverable, owner_principal, member_count)
  SELECT ${resource('i')}, '${DEP}', 'room', 'Room ' || i, 'members', false, ${member('i')}, 1 FROM generate_series(1, 100) i;
INSERT INTO memberships (resource_id, principal_id, role, state, updated_at)
  SELECT ${resource('i')}, ${member('i')}, 'owner', 'active', now() FROM generate_series(1, 100) i;
INSERT INTO wallets (holder_id, balance_micros, reserved_micros) VALUES ('${DEV}', 1000000000000000, 1000000000);
INSERT INTO wallet_leases (id, holder_id, developer_id, reserved_micros, used_micros, opened_by, opened_at, closed_at)
  SELECT 'wls_old' || i, '${DEV}', '${DEV}', 1000000, 1000000, 'bench', now() - interval '1 day', now() - interval '1 day' FROM generate_series(1, 2000) i;
INSERT INTO wallet_leases (id, holder_id, developer_id, reserved_micros, opened_by, opened_at) VALUES ('${LEASE}', '${DEV}', '${DEV}', 1000000000, 'bench', now());
INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, data, created_at, updated_at)
  SELECT (lpad(to_hex(1700000000000000 + i * 1000), 16, '0') || lpad(to_hex((random() * 9e18)::bigint), 16, '0'))::uuid, '${DEP}', 'notes',
    ${member('(i % 100 + 1)')}, ${resource('(i % 100 + 1)')}, jsonb_build_object('seq', i, 'title', 'Note ' || i, 'body', repeat('b', 60)),
    now() - (200000 - i) * interval '1 second', now() - (200000 - i) * interval '1 second'
  FROM generate_series(1, 200000) i;
-- Charges to the developer, a fifth to principals' own wallets, and one-time credits (once_key).
INSERT INTO wallet_entries (id, principal_id, developer_id, amount_micros, kind, app_id, env, actor_id, quantity, created_at, lease_id, reads_micros, writes_micros, transfer_micros)
  SELECT 'wal_' || md5(i::text), CASE WHEN i % 5 = 0 THEN 'usr_x' || (i % 20000 + 1) END, CASE WHEN i % 5 <> 0 THEN '${DEV}' END,
    -10, 'charge:rows.insert', '${APP}', 'dev', ${member('(i % 100 + 1)')}, 1, now() - (200000 - i) * interval '1 second', 'wls_old' || (i % 2000 + 1), 0, 10, 0
  FROM generate_series(1, 200000) i;
INSERT INTO wallet_entries (id, developer_id, amount_micros, kind, once_key, created_at)
  SELECT 'wal_credit' || i, 'dev_x' || i, 5000000, 'developer_credit', 'developer_credit:dev_x' || i, now() FROM generate_series(1, 2000) i;
VACUUM ANALYZE;`;

/** pgbench's random choices per transaction: the room (and so its member), the new row's and the entry's ids. */
const HEAD = '\\set r random(1, 100)\n\\set u random(1, 4611686018427387903)\n\\set w random(1, 4611686018427387903)\n';
/** A UUIDv7-like id (time first), as newRowId makes them: inserts land at the right edge of the primary key. */
const ROW_ID = "lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000000)::bigint), 16, '0') || lpad(to_hex(:u::bigint), 16, '0')";
const DATA = `'{"title": "written", "priority": 1}'`;

/** What each sentinel value passed to fastInsert stands for in the pgbench script. */
const SENTINELS: Record<string, string> = {
  '\u0001resource': `(${resource(':r')})`,
  '\u0001member': memberOf(':r'),
  '\u0001now': 'statement_timestamp()::text',
  '\u0001rows': `jsonb_build_array(jsonb_build_array(${ROW_ID}, ${DATA}::jsonb))::text`,
  '\u0001entryId': "('wal_' || to_hex(:w::bigint))",
  '\u0001entryAt': 'statement_timestamp()::text',
};

/** The fast insert's text with its parameters as pgbench variables: sentinels as their expressions, the rest as -D constants. */
async function fastInsertScript(metered: boolean): Promise<{ script: string; defines: string[] }> {
  let compiled: { sql: string; parameters: readonly unknown[] } | undefined;
  const db = sqlOver(async query => {
    compiled = query;
    return { rows: [], count: 0 };
  });
  const entry = [
    ...['\u0001entryId', null, DEV, -10n, 'charge:rows.insert', APP, 'dev', null, '\u0001member', 1n, '\u0001entryAt', LEASE],
    ...[0n, 10n, 0n],
  ] as const;
  const insert = ['\u0001resource', DEP, 'room', '\u0001member', ['owner', 'admin', 'writer'], 'notes', '\u0001now', '\u0001rows'] as const;
  // Metered, the statement of every insert after a resource's first: its storage payer known (the developer, its owner a test user), the lease's holder.
  if (metered) await fastInsertPaidBy.lease(db, ...insert, 5_000_000n, ...(entry as unknown as EntryValues), '\u0001member', DEV, true);
  else await fastInsert(db, ...insert);
  if (!compiled) throw new Error('fastInsert compiled nothing');
  const defines = ['-D', `mp=${MEMBER_PREFIX}`];
  const params = compiled.parameters.map((value, i) => {
    if (value === null) return 'NULL';
    if (typeof value === 'string' && value in SENTINELS) return SENTINELS[value];
    const text = Array.isArray(value) ? `{${value.join(',')}}` : String(value);
    defines.push('-D', `p${i + 1}=${text}`);
    return `:p${i + 1}`;
  });
  const sql = compiled.sql.replace(/\$(\d+)/g, (_, n: string) => params[Number(n) - 1]);
  return { script: `${HEAD}${sql};\n`, defines };
}

const FLOOR = `${HEAD}INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, room_id, data, created_at, updated_at)
  VALUES ((${ROW_ID})::uuid, '${DEP}', 'notes', ${memberOf(':r')}, ${resource(':r')}, NULL, ${DATA}::jsonb, statement_timestamp(), statement_timestamp());\n`;

interface Result {
  script: string;
  variant: string;
  tps: number;
  cpuMsPerTx: number;
  multixactsPerTx: number;
  /** With --perf: ms of PostgreSQL CPU per transaction in each of PHASES. */
  phases?: Record<string, number>;
}

/**
 * Where a transaction's CPU goes, as PostgreSQL 15's functions (inclusive of what they call, so
 * the nested rows are parts of the row above them, not additions).
 */
const PHASES: [label: string, fn: string][] = [
  ['cached plan (locks, revalidation)', 'GetCachedPlan'],
  ['executor start (plan nodes set up)', 'standard_ExecutorStart'],
  ['executor run', 'standard_ExecutorRun'],
  ['  of it: index inserts', 'ExecInsertIndexTuples'],
  ['  of it: row locks', 'heap_lock_tuple'],
  ['foreign-key triggers', 'AfterTriggerEndQuery'],
  ['executor end', 'standard_ExecutorEnd'],
  ['commit', 'CommitTransactionCommand'],
  ['  of it: WAL flush', 'XLogFlush'],
];

/** `perf record`s the backends for `ms`; resolves to the report's inclusive share (0-1) per function of PHASES. */
function perfShares(pids: number[], ms: number, file: string): Promise<Record<string, number>> {
  const record = spawn('perf', ['record', '-q', '-g', '-o', file, '-p', pids.join(','), '--', 'sleep', String(ms / 1000)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  record.stderr.on('data', chunk => (err += chunk));
  return new Promise((resolve, reject) => {
    record.on('error', error => reject(new Error(`--perf needs Linux perf on the PATH: ${error.message}`)));
    record.on('exit', code => {
      if (code !== 0) return reject(new Error(`perf record failed (${code}): ${err.trim()}`));
      const report = execFileSync('perf', ['report', '-i', file, '--stdio', '--children', '--sort', 'sym', '-g', 'none'], {
        encoding: 'utf8',
        maxBuffer: 64 << 20,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const shares: Record<string, number> = {};
      // "    45.53%     0.05%  [.] standard_ExecutorRun": children (inclusive) first, then self.
      for (const line of report.split('\n')) {
        const match = /^\s+([\d.]+)%\s+[\d.]+%\s+\[.\]\s+(\S+)/.exec(line);
        if (match && !(match[2] in shares)) shares[match[2]] = Number(match[1]) / 100;
      }
      resolve(Object.fromEntries(PHASES.map(([, fn]) => [fn, shares[fn] ?? 0])));
    });
  });
}

/** Ticks of user + system CPU of a process (0 once it has ended). */
function ticks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

const multixacts = () => Number(psql('postgres', "SELECT mxid_age(datminmxid) FROM pg_database WHERE datname = 'postgres'"));
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

async function run(name: string, script: { script: string; defines: string[] }, variant: string): Promise<Result> {
  execFileSync('dropdb', ['--if-exists', RUN]);
  execFileSync('createdb', ['-T', TEMPLATE, RUN]);
  if (variant !== 'schema') psqlFile(RUN, variant);
  psql(RUN, 'CHECKPOINT');
  const file = path.join(work, `${name}.sql`);
  writeFileSync(file, script.script);
  const logPrefix = path.join(work, `log-${name}`);
  for (const f of readdirSync(work)) if (f.startsWith(`log-${name}`)) rmSync(path.join(work, f));
  const mx0 = multixacts();
  const pgbench = spawn(
    'pgbench',
    [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(clients),
      '-j',
      String(Math.min(clients, 2)),
      '-T',
      String(seconds),
      '-l',
      '--log-prefix',
      logPrefix,
    ].concat(['-f', file, ...script.defines, RUN]),
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  pgbench.stdout.on('data', chunk => (out += chunk));
  const exited = new Promise<number | null>(resolve => pgbench.on('exit', resolve));
  // The middle of the run: connected, past the first checkpoint's full-page writes, before the end.
  const margin = Math.min(4, seconds / 5) * 1000;
  await sleep(margin);
  const pids = psql('postgres', `SELECT pid FROM pg_stat_activity WHERE datname = '${RUN}' AND application_name = 'pgbench'`).split('\n').map(Number);
  const start = { at: Date.now() / 1000, ticks: pids.map(ticks) };
  const window = seconds * 1000 - 2 * margin;
  const sampled = args.perf ? perfShares(pids, window, path.join(work, `${name}.perf`)) : undefined;
  await sleep(window);
  const end = { at: Date.now() / 1000, ticks: pids.map(ticks) };
  const shares = await sampled;
  if ((await exited) !== 0) throw new Error(`pgbench failed: ${out}`);
  const mx = multixacts() - mx0;
  let inWindow = 0;
  let total = 0;
  for (const f of readdirSync(work).filter(f => f.startsWith(`log-${name}`))) {
    for (const line of readFileSync(path.join(work, f), 'utf8').split('\n')) {
      const [, , , , epoch, micros] = line.split(' ');
      if (!epoch) continue;
      total++;
      const done = Number(epoch) + Number(micros) / 1e6;
      if (done >= start.at && done < end.at) inWindow++;
    }
  }
  const cpuTicks = pids.reduce((sum, _, i) => sum + end.ticks[i] - start.ticks[i], 0);
  const cpuMsPerTx = (cpuTicks * 10) / inWindow;
  return {
    script: name,
    variant: path.basename(variant),
    tps: Number(/tps = ([\d.]+)/.exec(out)?.[1]),
    cpuMsPerTx,
    multixactsPerTx: mx / total,
    ...(shares && { phases: Object.fromEntries(Object.entries(shares).map(([fn, share]) => [fn, share * cpuMsPerTx])) }),
  };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Number.isInteger(mid) ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[Math.floor(mid)];
};

/** With --perf: each script's CPU per transaction by PHASES, medians over the reps, one column per script and variant. */
function printPhases(variants: string[], names: string[], results: Result[]) {
  const columns = variants.flatMap(variant =>
    names
      .map(name => ({
        label: variant === 'schema' ? name : `${name} (${path.basename(variant)})`,
        mine: results.filter(r => r.script === name && r.variant === path.basename(variant)),
      }))
      .filter(column => column.mine.length > 0),
  );
  console.log(
    `\nPostgreSQL ms per transaction by where it went (perf, medians):\n| | ${columns.map(c => c.label).join(' | ')} |\n| --- |${' --- |'.repeat(columns.length)}`,
  );
  console.log(`| all | ${columns.map(c => median(c.mine.map(r => r.cpuMsPerTx)).toFixed(3)).join(' | ')} |`);
  for (const [label, fn] of PHASES)
    console.log(`| ${label} | ${columns.map(c => median(c.mine.map(r => r.phases?.[fn] ?? 0)).toFixed(3)).join(' | ')} |`);
}

async function main() {
  execFileSync('createdb', [TEMPLATE]);
  try {
    for (const dir of readdirSync(defaultMigrationsDir)
      .filter(d => /^\d+_/.test(d))
      .sort())
      psqlFile(TEMPLATE, path.join(defaultMigrationsDir, dir, 'migration.sql'));
    writeFileSync(path.join(work, 'seed.sql'), SEED);
    psqlFile(TEMPLATE, path.join(work, 'seed.sql'));
    const scripts: [string, { script: string; defines: string[] }][] = [
      ['floor', { script: FLOOR, defines: ['-D', `mp=${MEMBER_PREFIX}`] }],
      ['unmetered', await fastInsertScript(false)],
      ['metered', await fastInsertScript(true)],
    ];
    const metered = scripts[2][1];
    if (args['scripts-dir'])
      for (const [name, { script, defines }] of scripts) {
        writeFileSync(path.join(args['scripts-dir'], `${name}.sql`), script);
        writeFileSync(path.join(args['scripts-dir'], `${name}.defines`), `${defines.join(' ')}\n`);
      }
    for (const option of args.script ?? []) {
      const [name, file] = option.split('=');
      scripts.push([name, { script: readFileSync(file, 'utf8'), defines: metered.defines }]);
    }
    const variants = ['schema', ...(args.variant ?? []).map(v => path.resolve(v))];
    const results: Result[] = [];
    for (let rep = 0; rep < Number(args.reps); rep++)
      for (const variant of variants)
        for (const [name, script] of scripts) {
          if (variant !== 'schema' && name === 'floor') continue;
          const result = await run(name, script, variant);
          results.push(result);
          console.log(JSON.stringify(result));
        }
    console.log(
      `\n${clients} clients, ${seconds} s runs, ${args.reps} reps: medians (min)\n| variant | script | TPS | PG CPU ms/tx | multixacts/tx |\n| --- | --- | --- | --- | --- |`,
    );
    for (const variant of variants)
      for (const [name] of scripts) {
        const mine = results.filter(r => r.script === name && r.variant === path.basename(variant));
        if (!mine.length) continue;
        const cpu = mine.map(r => r.cpuMsPerTx);
        console.log(
          `| ${path.basename(variant)} | ${name} | ${median(mine.map(r => r.tps)).toFixed(0)} | ${median(cpu).toFixed(3)} (${Math.min(...cpu).toFixed(3)}) | ${median(mine.map(r => r.multixactsPerTx)).toFixed(2)} |`,
        );
      }
    if (args.perf)
      printPhases(
        variants,
        scripts.map(([name]) => name),
        results,
      );
  } finally {
    execFileSync('dropdb', ['--if-exists', RUN]);
    if (!args.keep) execFileSync('dropdb', ['--if-exists', TEMPLATE]);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
