/**
 * An app's origins and redirect URIs, each list with a remove button per entry and a field to add
 * one: origins one at a time (as `gatehouse dev` registers them), redirect URIs as the whole list.
 */
import { useState } from 'preact/hooks';
import { gql } from './api.js';
import { graphql } from './generated/index.js';
import { ErrorBox, Field, useAction } from './parts.js';

const AddOrigin = graphql(`
  mutation ConsoleAddAppOrigin($appId: ID!, $origin: String!) {
    addAppOrigin(appId: $appId, origin: $origin) { id }
  }
`);

const RemoveOrigin = graphql(`
  mutation ConsoleRemoveAppOrigin($appId: ID!, $origin: String!) {
    removeAppOrigin(appId: $appId, origin: $origin) { id }
  }
`);

const SetRedirectUris = graphql(`
  mutation ConsoleSetAppRedirectUris($appId: ID!, $redirectUris: [String!]!) {
    setAppRedirectUris(appId: $appId, redirectUris: $redirectUris) { id }
  }
`);

function UrlList({
  id,
  title,
  label,
  hint,
  urls,
  add,
  remove,
}: {
  id: string;
  title: string;
  label: string;
  hint: string;
  urls: string[];
  add(url: string): Promise<unknown>;
  remove(url: string): Promise<unknown>;
}) {
  const [value, setValue] = useState('');
  const { failure, busy, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    run(async () => {
      await add(value.trim());
      setValue('');
    });
  };
  return (
    <div>
      <h3 id={`${id}-title`}>{title}</h3>
      {!urls.length && <p class="muted">None.</p>}
      <ul aria-labelledby={`${id}-title`}>
        {urls.map(url => (
          <li key={url}>
            <code>{url}</code>{' '}
            <button
              type="button"
              class="secondary"
              disabled={busy}
              onClick={() => run(async () => void (await remove(url)))}
              aria-label={`Remove ${url}`}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={submit} class="inline">
        <Field id={id} label={label} value={value} set={setValue} hint={hint} required />
        <button type="submit" disabled={busy || !value.trim()}>
          Add
        </button>
      </form>
      <ErrorBox error={failure} />
    </div>
  );
}

export function AppUrls({ app, changed }: { app: { id: string; origins: string[]; redirectUris: string[] }; changed(): void }) {
  const appId = app.id;
  const after = (action: Promise<unknown>) => action.then(changed);
  return (
    <section aria-labelledby="app-urls-title">
      <h2 id="app-urls-title">Origins and redirect URIs</h2>
      <UrlList
        id="app-origin"
        title="Origins"
        label="Origin"
        hint="scheme://host[:port], no path: the app is served from it and its root is a redirect URI."
        urls={app.origins}
        add={origin => after(gql(AddOrigin, { appId, origin }))}
        remove={origin => after(gql(RemoveOrigin, { appId, origin }))}
      />
      <UrlList
        id="app-redirect-uri"
        title="Redirect URIs"
        label="Redirect URI"
        hint="An absolute URL, matched exactly at sign-in (plain http only on loopback)."
        urls={app.redirectUris}
        add={uri => after(gql(SetRedirectUris, { appId, redirectUris: [...app.redirectUris, uri] }))}
        remove={uri => after(gql(SetRedirectUris, { appId, redirectUris: app.redirectUris.filter(u => u !== uri) }))}
      />
    </section>
  );
}
