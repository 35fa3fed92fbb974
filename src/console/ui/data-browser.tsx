/**
 * The data browser of one test environment (docs/api.md §4.2): it acts as a test user the developer
 * names, with that user's token, so it sees exactly what the API lets that user see: the resources
 * they are a member of (members, rooms, grants), the rows the tables' access rules let them read,
 * and the files they may list. Production data is not browsable: no developer credential reads it.
 */
import { useState } from 'preact/hooks';
import { fileAs, gql, gqlAs } from './api.js';
import { graphql } from './generated/index.js';
import { DeployedSchemaQuery } from './app-detail.js';
import { DataTable, ErrorBox, Field, Loading, Page, Select, useAction, when } from './parts.js';
import { useData } from './use-data.js';

const BrowseAs = graphql(`
  mutation ConsoleBrowseAs($appId: ID!, $env: String!, $name: String!) {
    createTestUser(appId: $appId, env: $env, name: $name) { userId token }
  }
`);

const ResourcesAs = graphql(`
  query ConsoleBrowserResources {
    resources { id type name memberCount visibility createdAt }
  }
`);

const ResourceDetail = graphql(`
  query ConsoleBrowserResource($resourceId: ID!) {
    members(resourceId: $resourceId) { userId kind role state }
    rooms(resourceId: $resourceId) { id name isDefault effectiveRole }
  }
`);

const RoomGrants = graphql(`
  query ConsoleBrowserGrants($resourceId: ID!, $roomId: ID!) {
    roomGrants(resourceId: $resourceId, roomId: $roomId) { principalId role }
  }
`);

const RowsPage = graphql(`
  query ConsoleBrowserRows($input: DbSelectInput!) {
    dbSelect(input: $input) { rows nextCursor }
  }
`);

const FilesPage = graphql(`
  query ConsoleBrowserFiles($bucket: String!, $resourceId: ID, $cursor: String) {
    files(bucket: $bucket, resourceId: $resourceId, cursor: $cursor, limit: 50) { files { id path size contentType updatedAt } nextCursor }
  }
`);

interface SchemaIr {
  tables?: Record<string, { ownedBy: string | null; columns: Record<string, { type: string }> }>;
  buckets?: Record<string, { ownedBy: string | null }>;
}

type Resource = { id: string; type: string; name: string };

const ROWS_PER_PAGE = 20;

function Grants({ token, resourceId, roomId }: { token: string; resourceId: string; roomId: string }) {
  const { data, error } = useData(() => gqlAs(token, RoomGrants, { resourceId, roomId }));
  if (error) return <span class="muted">not visible to this user</span>;
  if (!data) return <Loading />;
  return <>{data.roomGrants.map(g => `${g.principalId} (${g.role})`).join(', ') || '—'}</>;
}

function ResourceView({ token, resource }: { token: string; resource: Resource }) {
  const { data, error } = useData(() => gqlAs(token, ResourceDetail, { resourceId: resource.id }));
  return (
    <div class="panel">
      <h3>
        {resource.name} <span class="muted">({resource.type})</span>
      </h3>
      <ErrorBox error={error} />
      {data && (
        <>
          <DataTable
            caption={`Members of ${resource.name}`}
            showCaption
            rows={data.members}
            keyOf={m => m.userId}
            columns={[
              { label: 'Member', cell: m => <code>{m.userId}</code> },
              { label: 'Kind', cell: m => m.kind },
              { label: 'Role', cell: m => m.role },
              { label: 'State', cell: m => m.state },
            ]}
          />
          <DataTable
            caption={`Rooms of ${resource.name}`}
            showCaption
            rows={data.rooms}
            keyOf={r => r.id}
            columns={[
              { label: 'Room', cell: r => (r.isDefault ? `${r.name} (default)` : r.name) },
              { label: 'This user’s role', cell: r => r.effectiveRole ?? '—' },
              { label: 'Grants', cell: r => <Grants token={token} resourceId={resource.id} roomId={r.id} /> },
            ]}
          />
        </>
      )}
    </div>
  );
}

function ResourcesSection({ token, resources }: { token: string; resources: Resource[] }) {
  const [open, setOpen] = useState<Resource | null>(null);
  return (
    <section aria-labelledby="browser-resources">
      <h2 id="browser-resources">Resources</h2>
      {!resources.length && <p>This user is a member of no resource.</p>}
      {resources.length > 0 && (
        <DataTable
          caption="Resources this user is a member of"
          rows={resources}
          keyOf={r => r.id}
          columns={[
            { label: 'Resource', cell: r => `${r.name} (${r.type})` },
            { label: 'Id', cell: r => <code>{r.id}</code> },
            {
              label: 'Open',
              cell: r => (
                <button type="button" class="secondary" onClick={() => setOpen(r)} aria-label={`Show members and rooms of ${r.name}`}>
                  Members and rooms
                </button>
              ),
            },
          ]}
        />
      )}
      {open && <ResourceView key={open.id} token={token} resource={open} />}
    </section>
  );
}

function ResourcePicker({
  id,
  resources,
  type,
  value,
  set,
}: {
  id: string;
  resources: Resource[];
  type: string;
  value: string;
  set(v: string): void;
}) {
  const candidates = resources.filter(r => r.type === type);
  return (
    <p class="field">
      <label for={id}>Resource ({type})</label>
      <select id={id} value={value} onChange={e => set((e.target as HTMLSelectElement).value)}>
        <option value="">Choose…</option>
        {candidates.map(r => (
          <option key={r.id} value={r.id}>
            {r.name}
          </option>
        ))}
      </select>
    </p>
  );
}

function RowsSection({ token, schema, resources }: { token: string; schema: SchemaIr; resources: Resource[] }) {
  const tables = Object.keys(schema.tables ?? {});
  const [table, setTable] = useState(tables[0] ?? '');
  const [resourceId, setResourceId] = useState('');
  const [where, setWhere] = useState('');
  const [pages, setPages] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState<{ rows: unknown[]; nextCursor?: string | null } | null>(null);
  const { failure, busy, run } = useAction();
  const ownedBy = schema.tables?.[table]?.ownedBy ?? null;
  const columns = Object.keys(schema.tables?.[table]?.columns ?? {});
  const load = (cursor: string | null, trail: (string | null)[]) =>
    run(async () => {
      let filter: unknown;
      try {
        filter = where.trim() ? JSON.parse(where) : undefined;
      } catch {
        throw new Error('The filter is not JSON, e.g. {"title": {"eq": "Hello"}}.');
      }
      const scope = ownedBy ? { kind: 'resource' as const, resourceId } : { kind: 'user' as const };
      const { dbSelect } = await gqlAs(token, RowsPage, { input: { table, scope, where: filter, limit: ROWS_PER_PAGE, cursor } });
      setPage(dbSelect);
      setPages(trail);
    });
  if (!tables.length) return null;
  return (
    <section aria-labelledby="browser-rows">
      <h2 id="browser-rows">Rows</h2>
      <form
        class="inline"
        onSubmit={e => {
          e.preventDefault();
          load(null, [null]);
        }}
      >
        <Select id="rows-table" label="Table" options={tables} value={table} set={setTable} />
        {ownedBy && <ResourcePicker id="rows-resource" resources={resources} type={ownedBy} value={resourceId} set={setResourceId} />}
        <Field id="rows-where" label="Filter (JSON)" value={where} set={setWhere} hint='e.g. {"title": {"eq": "Hello"}}' />
        <button type="submit" disabled={busy || (!!ownedBy && !resourceId)}>
          Show rows
        </button>
      </form>
      <ErrorBox error={failure} />
      {page && (
        <>
          {!page.rows.length && <p>No rows.</p>}
          {page.rows.length > 0 && (
            <DataTable
              caption={`Rows of ${table}, page ${pages.length}`}
              showCaption
              rows={page.rows as Record<string, unknown>[]}
              keyOf={r => String(r.id)}
              columns={['id', ...columns, '_creatorId'].map(c => ({
                label: c === '_creatorId' ? 'creator' : c,
                cell: (r: Record<string, unknown>) => (typeof r[c] === 'object' && r[c] !== null ? JSON.stringify(r[c]) : String(r[c] ?? '—')),
              }))}
            />
          )}
          <p class="actions">
            <button
              type="button"
              class="secondary"
              disabled={busy || pages.length < 2}
              onClick={() => load(pages[pages.length - 2], pages.slice(0, -1))}
            >
              Previous page
            </button>
            <button
              type="button"
              class="secondary"
              disabled={busy || !page.nextCursor}
              onClick={() => load(page.nextCursor!, [...pages, page.nextCursor!])}
            >
              Next page
            </button>
          </p>
        </>
      )}
    </section>
  );
}

type FileRow = { id: string; path: string; size: number; contentType: string; updatedAt: string };

const fileUrl = (bucket: string, resourceId: string, path: string) =>
  `/v1/files/${resourceId ? `resources/${encodeURIComponent(resourceId)}` : 'me'}/${encodeURIComponent(bucket)}/${path.split('/').map(encodeURIComponent).join('/')}`;

const readAs = (blob: Blob, how: 'text' | 'dataUrl') =>
  new Promise<string>((done, failed) => {
    const reader = new FileReader();
    reader.onload = () => done(String(reader.result));
    reader.onerror = () => failed(reader.error);
    if (how === 'text') reader.readAsText(blob);
    else reader.readAsDataURL(blob);
  });

function FilesSection({ token, schema, resources }: { token: string; schema: SchemaIr; resources: Resource[] }) {
  const buckets = Object.keys(schema.buckets ?? {});
  const [bucket, setBucket] = useState(buckets[0] ?? '');
  const [resourceId, setResourceId] = useState('');
  const [files, setFiles] = useState<FileRow[] | null>(null);
  const [preview, setPreview] = useState<{ path: string; text?: string; image?: string } | null>(null);
  const { failure, busy, run } = useAction();
  const ownedBy = schema.buckets?.[bucket]?.ownedBy ?? null;
  if (!buckets.length) return null;
  const list = (event: Event) => {
    event.preventDefault();
    run(async () => {
      setPreview(null);
      setFiles((await gqlAs(token, FilesPage, { bucket, resourceId: ownedBy ? resourceId : null, cursor: null })).files.files);
    });
  };
  const show = (file: FileRow) =>
    run(async () => {
      const blob = await fileAs(token, fileUrl(bucket, ownedBy ? resourceId : '', file.path));
      // Images as data: URLs (the console's CSP allows no blob: images); text as text; nothing runs.
      if (file.contentType.startsWith('image/')) setPreview({ path: file.path, image: await readAs(blob, 'dataUrl') });
      else setPreview({ path: file.path, text: (await readAs(blob.slice(0, 64 * 1024), 'text')) || '(empty)' });
    });
  const download = (file: FileRow) =>
    run(async () => {
      const blob = await fileAs(token, fileUrl(bucket, ownedBy ? resourceId : '', file.path));
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = file.path.split('/').pop() ?? 'file';
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    });
  return (
    <section aria-labelledby="browser-files">
      <h2 id="browser-files">Files</h2>
      <form class="inline" onSubmit={list}>
        <Select id="files-bucket" label="Bucket" options={buckets} value={bucket} set={setBucket} />
        {ownedBy && <ResourcePicker id="files-resource" resources={resources} type={ownedBy} value={resourceId} set={setResourceId} />}
        <button type="submit" disabled={busy || (!!ownedBy && !resourceId)}>
          List files
        </button>
      </form>
      <ErrorBox error={failure} />
      {files && !files.length && <p>No files.</p>}
      {files && files.length > 0 && (
        <DataTable
          caption={`Files in ${bucket}`}
          showCaption
          rows={files}
          keyOf={f => f.id}
          columns={[
            { label: 'Path', cell: f => <code>{f.path}</code> },
            { label: 'Type', cell: f => f.contentType },
            { label: 'Bytes', class: 'num', cell: f => f.size },
            { label: 'Updated', cell: f => when(f.updatedAt) },
            {
              label: 'Open',
              class: 'actions',
              cell: f => (
                <>
                  <button type="button" class="secondary" onClick={() => show(f)} aria-label={`Preview ${f.path}`}>
                    Preview
                  </button>
                  <button type="button" class="secondary" onClick={() => download(f)} aria-label={`Download ${f.path}`}>
                    Download
                  </button>
                </>
              ),
            },
          ]}
        />
      )}
      {preview && (
        <figure class="panel preview">
          <figcaption>{preview.path}</figcaption>
          {preview.image ? <img src={preview.image} alt={`Preview of ${preview.path}`} /> : <pre class="code">{preview.text}</pre>}
        </figure>
      )}
    </section>
  );
}

function Browser({ token, userId, schema }: { token: string; userId: string; schema: SchemaIr }) {
  const { data, error } = useData(() => gqlAs(token, ResourcesAs, {}));
  const resources = data?.resources ?? [];
  return (
    <>
      <p class="notice" role="status">
        Browsing as <code>{userId}</code>: what the API lets this user see.
      </p>
      <ErrorBox error={error} />
      {data && (
        <>
          <ResourcesSection token={token} resources={resources} />
          <RowsSection token={token} schema={schema} resources={resources} />
          <FilesSection token={token} schema={schema} resources={resources} />
        </>
      )}
    </>
  );
}

export function DataPage({ appId, env }: { appId: string; env: string }) {
  const { data, error, loading } = useData(() => gql(DeployedSchemaQuery, { appId, env }));
  const [name, setName] = useState('');
  const [as, setAs] = useState<{ token: string; userId: string } | null>(null);
  const { failure, busy, run } = useAction();
  const browse = (event: Event) => {
    event.preventDefault();
    run(async () => {
      const { createTestUser } = await gql(BrowseAs, { appId, env, name });
      setAs({ token: createTestUser.token, userId: createTestUser.userId });
    });
  };
  return (
    <Page title={`Data of ${env}`}>
      <p>
        <a href={`#/apps/${appId}`}>← The app</a>
      </p>
      <p class="muted">
        The browser acts as one of this environment’s test users, through the same authorization as the API: you see what that user may see.
        Production data is not browsable.
      </p>
      <ErrorBox error={error ?? failure} />
      {loading && !data && <Loading />}
      <form class="inline" onSubmit={browse}>
        <Field id="browse-as" label="Test user name" value={name} set={setName} required />
        <button type="submit" disabled={busy || !name.trim()}>
          Browse as this user
        </button>
      </form>
      {as && data && <Browser key={as.userId} token={as.token} userId={as.userId} schema={data.deployedSchema.schema as SchemaIr} />}
    </Page>
  );
}
