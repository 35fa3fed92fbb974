/** The person's account: who they are in every app. */
import { gql } from './api.js';
import { graphql } from './generated/index.js';
import { ErrorBox, Loading, Page, when } from './parts.js';
import { useData } from './use-data.js';

export const AccountQuery = graphql(`
  query ConsoleAccount {
    myDashboardAccount { id displayName handle email createdAt }
  }
`);

export function AccountPage() {
  const { data, error, loading } = useData(() => gql(AccountQuery));
  const account = data?.myDashboardAccount;
  return (
    <Page title="Account">
      {loading && <Loading />}
      <ErrorBox error={error} />
      {account && (
        <dl class="facts">
          <dt>Name</dt>
          <dd>{account.displayName ?? '—'}</dd>
          <dt>Handle</dt>
          <dd>{account.handle ? `@${account.handle}` : '—'}</dd>
          <dt>Email</dt>
          <dd>{account.email ?? '—'}</dd>
          <dt>User id</dt>
          <dd>
            <code>{account.id}</code>
          </dd>
          <dt>Since</dt>
          <dd>{when(account.createdAt)}</dd>
        </dl>
      )}
    </Page>
  );
}
