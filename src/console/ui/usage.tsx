/**
 * Usage: spend per UTC day by class, as charts with the figures beside them: what each app spent
 * of the signed-in person's wallet (UsagePage), and, on a linked developer's app page, what each
 * environment spent of the developer's wallet and what the app spent of its users' (AppSpend).
 */
import { useState } from 'preact/hooks';
import { gql } from './api.js';
import { graphql } from './generated/index.js';
import { ErrorBox, Loading, Page } from './parts.js';
import { SpendChart } from './spend-chart.js';
import { useData } from './use-data.js';

const MySpendQuery = graphql(`
  query ConsoleMySpend($days: Int) {
    mySpendByDay(days: $days) {
      appId
      appName
      since
      until
      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }
      total { readsUsd writesUsd transferUsd storageUsd totalUsd }
    }
  }
`);

const EnvSpendQuery = graphql(`
  query ConsoleEnvSpend($appId: ID!, $env: String!, $days: Int) {
    envSpendByDay(appId: $appId, env: $env, days: $days) {
      since
      until
      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }
      total { readsUsd writesUsd transferUsd storageUsd totalUsd }
    }
    usersSpendByDay(appId: $appId, env: $env, days: $days) {
      since
      until
      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }
      total { readsUsd writesUsd transferUsd storageUsd totalUsd }
    }
  }
`);

const WINDOWS = [7, 30, 92];

function WindowSelect({ id, days, set }: { id: string; days: number; set: (days: number) => void }) {
  return (
    <p>
      <label for={id}>Days </label>
      <select id={id} value={days} onChange={e => set(Number((e.target as HTMLSelectElement).value))}>
        {WINDOWS.map(n => (
          <option key={n} value={n}>
            Last {n} days
          </option>
        ))}
      </select>
    </p>
  );
}

/** One environment of a developer's app: its test sessions' spend of the developer's wallet, and its signed-in users' of theirs. */
function EnvSpend({ appId, env, days }: { appId: string; env: string; days: number }) {
  const { data, error } = useData(() => gql(EnvSpendQuery, { appId, env, days }));
  return (
    <>
      <ErrorBox error={error} />
      {data && (
        <>
          <SpendChart id={`spend-${env}`} title={`${env}: your wallet`} spend={data.envSpendByDay} />
          <SpendChart id={`users-spend-${env}`} title={`${env}: signed-in users' wallets`} spend={data.usersSpendByDay} />
        </>
      )}
    </>
  );
}

/** A developer's app, per environment (the app page of a linked developer). */
export function AppSpend({ appId, envs }: { appId: string; envs: string[] }) {
  const [days, setDays] = useState(30);
  return (
    <section aria-labelledby="app-spend-title">
      <h2 id="app-spend-title">Spend per day</h2>
      <WindowSelect id="app-spend-days" days={days} set={setDays} />
      {!envs.length && <p class="muted">Nothing deployed yet.</p>}
      {envs.map(env => (
        <EnvSpend key={`${env}:${days}`} appId={appId} env={env} days={days} />
      ))}
    </section>
  );
}

export function UsagePage() {
  const [days, setDays] = useState(30);
  const { data, error, loading, reload } = useData(() => gql(MySpendQuery, { days }));
  const apps = data?.mySpendByDay;
  return (
    <Page title="Usage">
      <p>What each app spent of your wallet per day (UTC), by class: reads, writes, bytes moved and bytes kept at rest.</p>
      <WindowSelect
        id="usage-days"
        days={days}
        set={next => {
          // One render with both: the query that reload runs reads the new window.
          setDays(next);
          reload();
        }}
      />
      <ErrorBox error={error} />
      {loading && !data && <Loading />}
      {apps && apps.length === 0 && <p class="muted">No app spent anything of your wallet in these days.</p>}
      {apps?.map(app => (
        <SpendChart key={app.appId} id={`spend-${app.appId}`} title={app.appName ?? `${app.appId} (deleted)`} spend={app} />
      ))}
    </Page>
  );
}
