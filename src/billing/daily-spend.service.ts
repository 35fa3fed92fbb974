/**
 * Spend per UTC day by price class (docs/api.md §14.4): one grouped statement over the ledger
 * (`wallet_entries`), whose charges carry their amount split by class, and the charges of open
 * wallet leases (`wallet_charges`), so they count as soon as they are made.
 */
import { envNameSchema } from '../apps/apps.rules.js';
import type { ServiceDeps } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { type Sql, sql } from '../db/sql.js';
import { parseInput } from '../errors.js';
import { type DailySpend, type DaySums, SPEND_DAYS, dailySpend, spendDaysSchema, spendWindow } from './daily-spend.rules.js';
import { ownedApp } from './metering.service.js';
import { ledgerWithOpenCharges } from './wallet-leases.service.js';
import { microsToUsd } from './wallet.service.js';

type SpendDeps = Pick<ServiceDeps, 'prisma' | 'sql' | 'now'>;

/** The view's window from the asked number of days (default SPEND_DAYS.default). */
const windowOf = (deps: SpendDeps, days: number | null | undefined) =>
  spendWindow(deps.now(), parseInput(spendDaysSchema, days ?? SPEND_DAYS.default, 'days'));

const SPEND_COLUMNS = ['principal_id', 'developer_id', 'app_id', 'env', 'created_at', 'reads_micros', 'writes_micros', 'transfer_micros'] as const;

/** The ledger's entries with an app, in the window, and open leases' charges: what the filters below narrow. */
const entriesIn = (db: Sql, since: Date, until: Date) =>
  db
    .selectFrom(ledgerWithOpenCharges(db, SPEND_COLUMNS, true))
    .where('e.app_id', 'is not', null)
    .where('e.created_at', '>=', since)
    .where('e.created_at', '<', until);

const DAY = sql<string>`to_char(e.created_at, 'YYYY-MM-DD')`;
/** Spent micro-dollars of one class column (entries are signed: a charge is negative). */
const spent = (column: 'reads_micros' | 'writes_micros' | 'transfer_micros' | 'storage_micros') =>
  sql<bigint>`COALESCE(-SUM(${sql.ref(`e.${column}`)}), 0)::bigint`;
const CLASS_SUMS = [
  spent('reads_micros').as('reads'),
  spent('writes_micros').as('writes'),
  spent('transfer_micros').as('transfer'),
  spent('storage_micros').as('storage'),
] as const;

/**
 * What an environment of the developer's app spent of the developer's wallet per day: its test
 * sessions' calls, and the bytes at rest and site transfer the developer pays for there.
 */
export async function envSpendByDay(deps: SpendDeps, developerId: string, appId: string, env: string, days?: number | null) {
  await ownedApp(deps, developerId, appId);
  env = parseInput(envNameSchema, env, 'env');
  const window = windowOf(deps, days);
  const sums: DaySums[] = await entriesIn(deps.sql, window.since, window.until)
    .select([DAY.as('day'), ...CLASS_SUMS])
    .where('e.app_id', '=', appId)
    .where('e.env', '=', env)
    .where('e.developer_id', '=', developerId)
    .groupBy(DAY)
    .execute();
  return { appId, env, ...dailySpend(window.names, sums, microsToUsd) };
}

/** What the app spent of its signed-in users' own wallets per day, in one environment or all. */
export async function usersSpendByDay(deps: SpendDeps, developerId: string, appId: string, env?: string | null, days?: number | null) {
  await ownedApp(deps, developerId, appId);
  const envName = env == null ? null : parseInput(envNameSchema, env, 'env');
  const window = windowOf(deps, days);
  let query = entriesIn(deps.sql, window.since, window.until)
    .select([DAY.as('day'), ...CLASS_SUMS])
    .where('e.app_id', '=', appId)
    .where('e.principal_id', 'is not', null);
  if (envName) query = query.where('e.env', '=', envName);
  const sums: DaySums[] = await query.groupBy(DAY).execute();
  return { appId, env: envName, ...dailySpend(window.names, sums, microsToUsd) };
}

/** What each app spent of the person's own wallet per day (their dashboard): apps with spend in the window. */
export async function mySpendByDay(
  deps: SpendDeps,
  principalId: string,
  days?: number | null,
): Promise<(DailySpend & { appId: string; appName: string | null })[]> {
  const window = windowOf(deps, days);
  const sums = await entriesIn(deps.sql, window.since, window.until)
    .leftJoin('apps as a', 'a.id', 'e.app_id')
    .select(['e.app_id as appId', 'a.name as appName', DAY.as('day'), ...CLASS_SUMS])
    .where('e.principal_id', '=', principalId)
    .groupBy(['e.app_id', 'a.name', DAY])
    .execute();
  const apps = new Map<string, { appName: string | null; sums: DaySums[] }>();
  for (const s of sums) {
    const appId = s.appId as string;
    const app = apps.get(appId) ?? { appName: s.appName, sums: [] };
    app.sums.push(s);
    apps.set(appId, app);
  }
  return [...apps]
    .map(([appId, app]) => ({ appId, appName: app.appName, ...dailySpend(window.names, app.sums, microsToUsd) }))
    .sort((a, b) => (a.appName ?? a.appId).localeCompare(b.appName ?? b.appId));
}

/** What `services.spend` offers; src/services.ts binds each to the server's dependencies. */
export const dailySpendOperations = { envSpendByDay, usersSpendByDay, mySpendByDay };

export type DailySpendService = Bound<typeof dailySpendOperations>;
