/** The linked developer's apps: create one, see its origins, redirect URIs and OAuth client ids. */
import { useState } from 'preact/hooks';
import { gql } from './api.js';
import { graphql } from './generated/index.js';
import { DataTable, ErrorBox, Field, Loading, Notice, Page, useAction } from './parts.js';
import { useData } from './use-data.js';

export const AppsQuery = graphql(`
  query ConsoleApps {
    apps { id name origins redirectUris clientIds environments createdAt }
  }
`);

const CreateApp = graphql(`
  mutation ConsoleCreateApp($input: CreateAppInput!) {
    createApp(input: $input) { id name clientIds }
  }
`);

const lines = (text: string) =>
  text
    .split('\n')
    .map(l => l.trim())
    .filter(Boolean);

const list = (items: string[]) => (items.length ? items.map(i => <code class="chip">{i}</code>) : <span class="muted">none</span>);

function CreateAppForm({ created }: { created(name: string, id: string): void }) {
  const [name, setName] = useState('');
  const [origins, setOrigins] = useState('');
  const [redirects, setRedirects] = useState('');
  const { failure, busy, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    run(async () => {
      const { createApp } = await gql(CreateApp, { input: { name, origins: lines(origins), redirectUris: lines(redirects) } });
      setName('');
      setOrigins('');
      setRedirects('');
      created(createApp.name, createApp.id);
    });
  };
  return (
    <form onSubmit={submit} class="panel">
      <h2>New app</h2>
      <Field id="app-name" label="Name" value={name} set={setName} required />
      <Field id="app-origins" label="Origins" value={origins} set={setOrigins} multiline hint="One per line, e.g. https://app.example.com" />
      <Field id="app-redirects" label="Redirect URIs" value={redirects} set={setRedirects} multiline hint="One per line, matched exactly" />
      <ErrorBox error={failure} />
      <button type="submit" disabled={busy || !name.trim()}>
        Create app
      </button>
    </form>
  );
}

export function AppsPage() {
  const { data, error, loading, reload } = useData(() => gql(AppsQuery));
  const [notice, setNotice] = useState('');
  const apps = data?.apps ?? [];
  return (
    <Page title="Apps">
      {notice && <Notice text={notice} />}
      <ErrorBox error={error} />
      {loading && !data && <Loading />}
      {data && !apps.length && <p>No apps yet.</p>}
      {apps.length > 0 && (
        <DataTable
          caption="Your apps"
          rows={apps}
          keyOf={a => a.id}
          columns={[
            {
              label: 'App',
              cell: a => (
                <>
                  <a href={`#/apps/${a.id}`}>{a.name}</a>
                  <br />
                  <code class="muted">{a.id}</code>
                </>
              ),
            },
            { label: 'Client ids', cell: a => list(a.clientIds) },
            { label: 'Origins', cell: a => list(a.origins) },
            { label: 'Redirect URIs', cell: a => list(a.redirectUris) },
            { label: 'Environments', cell: a => list(a.environments) },
          ]}
        />
      )}
      <CreateAppForm
        created={(name, id) => {
          setNotice(`App ${name} was created (${id}).`);
          reload();
        }}
      />
    </Page>
  );
}
