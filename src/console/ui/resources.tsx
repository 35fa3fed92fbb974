/**
 * The resources the person owns, in every app, with the dashboard's deletion (docs/api.md §4.2):
 * every member is removed and told live, as a remove tells them. The name must be typed to confirm.
 */
import { useState } from 'preact/hooks';
import { gql } from './api.js';
import { graphql } from './generated/index.js';
import { DataTable, ErrorBox, Loading, Notice, Page, resourceInAppColumns, when } from './parts.js';
import { useData } from './use-data.js';

const OwnedQuery = graphql(`
  query ConsoleOwnedResources {
    myOwnedResources { resourceId type name memberCount appId appName env createdAt }
  }
`);

const DeleteResource = graphql(`
  mutation ConsoleDeleteResource($appId: ID!, $resourceId: ID!) {
    deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) { ok }
  }
`);

interface Owned {
  resourceId: string;
  name: string;
  appId: string;
  memberCount: number;
}

function DeleteForm({ resource, done, cancel }: { resource: Owned; done(): void; cancel(): void }) {
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<unknown>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      await gql(DeleteResource, { appId: resource.appId, resourceId: resource.resourceId });
      done();
    } catch (e) {
      setFailure(e);
    }
  };
  const id = `confirm-${resource.resourceId}`;
  return (
    <form class="confirm" onSubmit={submit}>
      <p>
        Deleting <strong>{resource.name}</strong> removes its {resource.memberCount} member(s), its rooms, rows and files. It cannot be undone.
      </p>
      <label for={id}>Type the name to confirm</label>
      <input id={id} value={typed} onInput={e => setTyped((e.target as HTMLInputElement).value)} autoComplete="off" />
      <ErrorBox error={failure} />
      <div class="actions">
        <button type="submit" class="danger" disabled={typed !== resource.name}>
          Delete {resource.name}
        </button>
        <button type="button" class="secondary" onClick={cancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function ResourcesPage() {
  const { data, error, loading, reload } = useData(() => gql(OwnedQuery));
  const [deleting, setDeleting] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const resources = data?.myOwnedResources ?? [];
  return (
    <Page title="Your resources">
      <p class="muted">The resources you own in every app. Only you, signed in here, can delete them.</p>
      {notice && <Notice text={notice} />}
      <ErrorBox error={error} />
      {loading && !data && <Loading />}
      {data && !resources.length && <p>You own no resources.</p>}
      {resources.length > 0 && (
        <DataTable
          caption="Resources you own"
          rows={resources}
          keyOf={r => r.resourceId}
          columns={[
            ...resourceInAppColumns,
            { label: 'Members', cell: r => r.memberCount },
            { label: 'Created', cell: r => when(r.createdAt) },
            {
              label: 'Delete',
              cell: r =>
                deleting === r.resourceId ? (
                  <DeleteForm
                    resource={r}
                    cancel={() => setDeleting(null)}
                    done={() => {
                      setDeleting(null);
                      setNotice(`${r.name} was deleted; its members were told.`);
                      reload();
                    }}
                  />
                ) : (
                  <button type="button" class="danger" onClick={() => setDeleting(r.resourceId)} aria-label={`Delete ${r.name}…`}>
                    Delete…
                  </button>
                ),
            },
          ]}
        />
      )}
    </Page>
  );
}
