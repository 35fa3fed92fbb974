/**
 * Usage: what each app spent of the signed-in person's wallet per UTC day, by class, as charts
 * with the figures beside them. The console signs in with the dashboard session only, which is no
 * developer credential: an environment's spend (envSpendByDay, developer token) goes on this
 * page's SpendChart once the console acts as a developer.
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

const WINDOWS = [7, 30, 92];

export function UsagePage() {
  const [days, setDays] = useState(30);
  const { data, error, loading, reload } = useData(() => gql(MySpendQuery, { days }));
  const apps = data?.mySpendByDay;
  return (
    <Page title="Usage">
      <p>What each app spent of your wallet per day (UTC), by class: reads, writes, bytes moved and bytes kept at rest.</p>
      <p>
        <label for="usage-days">Days </label>
        <select
          id="usage-days"
          value={days}
          onChange={e => {
            // One render with both: the query that reload runs reads the new window.
            setDays(Number((e.target as HTMLSelectElement).value));
            reload();
          }}
        >
          {WINDOWS.map(n => (
            <option key={n} value={n}>
              Last {n} days
            </option>
          ))}
        </select>
      </p>
      <ErrorBox error={error} />
      {loading && !data && <Loading />}
      {apps && apps.length === 0 && <p class="muted">No app spent anything of your wallet in these days.</p>}
      {apps?.map(app => (
        <SpendChart key={app.appId} id={`spend-${app.appId}`} title={app.appName ?? `${app.appId} (deleted)`} spend={app} />
      ))}
    </Page>
  );
}
