/** The person's wallet: balance and newest entries, each charge with the calls it sums. */
import { gql } from './api.js';
import { graphql } from './generated/index.js';
import { ErrorBox, Loading, Page, usd, when } from './parts.js';
import { useData } from './use-data.js';

const WalletQuery = graphql(`
  query ConsoleWallet {
    myWallet { balanceUsd entries { id kind amountUsd appId env quantity calls createdAt } }
  }
`);

export function WalletPage() {
  const { data, error, loading } = useData(() => gql(WalletQuery));
  const wallet = data?.myWallet;
  return (
    <Page title="Wallet">
      <ErrorBox error={error} />
      {loading && !data && <Loading />}
      {wallet && (
        <>
          <p class="balance">
            Balance: <strong>{usd(wallet.balanceUsd)}</strong>
          </p>
          <table>
            <caption>Newest entries</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">App</th>
                <th scope="col" class="num">
                  Calls
                </th>
                <th scope="col" class="num">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {wallet.entries.map(e => (
                <tr key={e.id}>
                  <td>{when(e.createdAt)}</td>
                  <td>{e.kind.replace('_', ' ')}</td>
                  <td>{e.appId ? `${e.appId}${e.env ? ` (${e.env})` : ''}` : '—'}</td>
                  {/* A lease's charges fold into one entry per kind, app and day: calls says how many it sums. */}
                  <td class="num">{e.calls ?? '—'}</td>
                  <td class="num">{usd(e.amountUsd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Page>
  );
}
