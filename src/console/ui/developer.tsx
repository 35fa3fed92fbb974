/**
 * Acting as a developer here (docs/api.md §4.2): paste a developer token once; the server checks
 * it and links that developer to you, and this console session then acts as that developer.
 */
import { useState } from 'preact/hooks';
import { gql } from './api.js';
import { graphql } from './generated/index.js';
import { ErrorBox, Field, Loading, Notice, Page, useAction, when } from './parts.js';
import { useData } from './use-data.js';

export const ConsoleDeveloperQuery = graphql(`
  query ConsoleDeveloper {
    consoleDeveloper { developerId email linkedAt }
  }
`);

const LinkDeveloper = graphql(`
  mutation ConsoleLinkDeveloper($token: String!) {
    linkDeveloper(token: $token) { developerId email linkedAt }
  }
`);

const UnlinkDeveloper = graphql(`
  mutation ConsoleUnlinkDeveloper {
    unlinkDeveloper { ok }
  }
`);

export function DeveloperPage({ changed }: { changed(): void }) {
  const { data, error, loading, reload } = useData(() => gql(ConsoleDeveloperQuery));
  const [token, setToken] = useState('');
  const [notice, setNotice] = useState('');
  const { failure, busy, run } = useAction();
  const linked = data?.consoleDeveloper;
  const link = (event: Event) => {
    event.preventDefault();
    run(async () => {
      const { linkDeveloper } = await gql(LinkDeveloper, { token });
      setToken('');
      setNotice(`You now act as the developer ${linkDeveloper.email} here.`);
      reload();
      changed();
    });
  };
  const unlink = () =>
    run(async () => {
      await gql(UnlinkDeveloper);
      setNotice('This console no longer acts as a developer.');
      reload();
      changed();
    });
  return (
    <Page title="Developer">
      {notice && <Notice text={notice} />}
      <ErrorBox error={error ?? failure} />
      {loading && !data && <Loading />}
      {linked && (
        <>
          <dl class="facts">
            <dt>Developer</dt>
            <dd>{linked.email}</dd>
            <dt>Developer id</dt>
            <dd>
              <code>{linked.developerId}</code>
            </dd>
            <dt>Linked</dt>
            <dd>{when(linked.linkedAt)}</dd>
          </dl>
          <p>Signed in here, you act as this developer: its apps, deployments, test users and budgets, as its token reaches them.</p>
          <button type="button" class="secondary" onClick={unlink} disabled={busy}>
            Unlink this developer
          </button>
        </>
      )}
      {data && !linked && (
        <form onSubmit={link} class="panel">
          <h2>Become a developer here</h2>
          <p>
            Paste a developer token (from <kbd>gatehouse dev-token create</kbd> or <kbd>gatehouse login</kbd>) to prove it is yours. The server checks
            it and links that developer to you; the token is not stored, and your console session acts as the developer from then on.
          </p>
          <Field id="developer-token" label="Developer token" type="password" value={token} set={setToken} required />
          <button type="submit" disabled={busy || !token.trim()}>
            Link developer
          </button>
        </form>
      )}
    </Page>
  );
}
