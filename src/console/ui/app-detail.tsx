/**
 * One app of the linked developer: its environments with the deployed schema of each, a deploy,
 * budgets with spend, its origins and redirect URIs, and test users (the token is shown once).
 */
import { useState } from 'preact/hooks';
import { gql } from './api.js';
import { AppsQuery } from './apps.js';
import { graphql } from './generated/index.js';
import { changesOnly, lineDiff } from './line-diff.js';
import { DataTable, ErrorBox, Field, Loading, Notice, Page, Select, usd, useAction, when } from './parts.js';
import { useData } from './use-data.js';
import { AppSpend } from './usage.js';
import { AppUrls } from './app-urls.js';

export const VersionsQuery = graphql(`
  query ConsoleDeploymentVersions($appId: ID!, $env: String!) {
    deploymentVersions(appId: $appId, env: $env) { version schema createdAt }
  }
`);

export const DeployedSchemaQuery = graphql(`
  query ConsoleDeployedSchema($appId: ID!, $env: String!) {
    deployedSchema(appId: $appId, env: $env) { env version schema }
  }
`);

const Deploy = graphql(`
  mutation ConsoleDeploy($appId: ID!, $env: String!, $schema: JSON!) {
    deploy(appId: $appId, env: $env, schema: $schema) { env version tables buckets resourceTypes }
  }
`);

const BudgetsQuery = graphql(`
  query ConsoleBudgets($appId: ID!) {
    budgets(appId: $appId) { period walletUsd apps { appId envs { env limitUsd spentUsd } } }
  }
`);

const SetBudget = graphql(`
  mutation ConsoleSetBudget($appId: ID!, $env: String!, $usd: String!) {
    setEnvBudget(appId: $appId, env: $env, usd: $usd) { env limitUsd }
  }
`);

const RevokeTestUser = graphql(`
  mutation ConsoleRevokeTestUser($appId: ID!, $env: String!, $name: String!) {
    revokeTestUser(appId: $appId, env: $env, name: $name) { userId env revoked }
  }
`);

const TestUsersQuery = graphql(`
  query ConsoleTestUsers($appId: ID!, $env: String!) {
    testUsers(appId: $appId, env: $env) { userId name createdAt hasLiveTokens }
  }
`);

const MintTestUser = graphql(`
  mutation ConsoleMintTestUser($appId: ID!, $env: String!, $name: String!) {
    createTestUser(appId: $appId, env: $env, name: $name) { userId token expiresAt env }
  }
`);

/** The test environments: test users and budgets exist only there. */
export const testEnvs = (envs: string[]) => envs.filter(e => e !== 'prod');

/** Pretty JSON with its keys sorted, so two versions line up. */
const pretty = (value: unknown): string =>
  JSON.stringify(
    value,
    (_, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => x.localeCompare(y))) : v),
    2,
  );

function SchemaDiff({ before, after }: { before: unknown; after: unknown }) {
  const lines = changesOnly(lineDiff(pretty(before), pretty(after)));
  if (!lines.some(l => l && l.kind !== 'same')) return <p>The two versions deployed the same schema.</p>;
  return (
    <pre class="code diff">
      {lines.map((l, k) =>
        l === null ? (
          <span key={k} class="muted">
            {'…\n'}
          </span>
        ) : (
          <span key={k} class={l.kind}>
            {`${l.kind === 'added' ? '+' : l.kind === 'removed' ? '−' : ' '} ${l.text}\n`}
          </span>
        ),
      )}
    </pre>
  );
}

function SchemaHistory({ appId, env }: { appId: string; env: string }) {
  const { data, error } = useData(() => gql(VersionsQuery, { appId, env }));
  const versions = data?.deploymentVersions ?? [];
  const names = versions.map(v => String(v.version));
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const pick = (name: string, fallback: number) => versions.find(v => String(v.version) === name) ?? versions[fallback];
  const latest = versions[0];
  return (
    <>
      <ErrorBox error={error} />
      {latest && (
        <details>
          <summary>
            Version {latest.version}: schema of {env}
          </summary>
          <pre class="code">{pretty(latest.schema)}</pre>
        </details>
      )}
      {versions.length > 1 && (
        <details>
          <summary>Compare versions of {env}</summary>
          <div class="inline">
            <Select id={`diff-from-${env}`} label="From version" options={names} value={from || names[1]} set={setFrom} />
            <Select id={`diff-to-${env}`} label="To version" options={names} value={to || names[0]} set={setTo} />
          </div>
          <SchemaDiff before={pick(from, 1).schema} after={pick(to, 0).schema} />
        </details>
      )}
    </>
  );
}

function DeployForm({ appId, deployed }: { appId: string; deployed(text: string): void }) {
  const [env, setEnv] = useState('dev');
  const [schema, setSchema] = useState('');
  const { failure, busy, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    run(async () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(schema);
      } catch {
        throw new Error('The schema is not JSON: paste the output of defineSchema (gatehouse deploy --print).');
      }
      const { deploy } = await gql(Deploy, { appId, env, schema: parsed });
      deployed(
        `Deployed version ${deploy.version} to ${deploy.env}: tables ${deploy.tables.join(', ') || 'none'}, buckets ${deploy.buckets.join(', ') || 'none'}.`,
      );
    });
  };
  return (
    <form onSubmit={submit} class="panel">
      <h2>Deploy a schema</h2>
      <Field id="deploy-env" label="Environment" value={env} set={setEnv} required />
      <Field
        id="deploy-schema"
        label="Schema (JSON)"
        value={schema}
        set={setSchema}
        multiline
        hint="The app schema IR that defineSchema compiles to."
        required
      />
      <ErrorBox error={failure} />
      <button type="submit" disabled={busy || !schema.trim() || !env.trim()}>
        Deploy
      </button>
    </form>
  );
}

function Budgets({ appId, envs }: { appId: string; envs: string[] }) {
  const { data, error, reload } = useData(() => gql(BudgetsQuery, { appId }));
  const [env, setEnv] = useState('');
  const [limit, setLimit] = useState('');
  const { failure, busy, run } = useAction();
  const rows = data?.budgets.apps.find(a => a.appId === appId)?.envs ?? [];
  const submit = (event: Event) => {
    event.preventDefault();
    run(async () => {
      await gql(SetBudget, { appId, env: env || envs[0], usd: limit });
      setLimit('');
      reload();
    });
  };
  return (
    <section aria-labelledby="budgets-title">
      <h2 id="budgets-title">Budgets</h2>
      <ErrorBox error={error} />
      {data && (
        <p class="muted">
          Period {data.budgets.period}; your wallet: {usd(data.budgets.walletUsd)}
        </p>
      )}
      {rows.length > 0 && (
        <DataTable
          caption="Test-environment budgets this month"
          rows={rows}
          keyOf={r => r.env}
          columns={[
            { label: 'Environment', cell: r => r.env },
            { label: 'Spent', class: 'num', cell: r => usd(r.spentUsd) },
            { label: 'Monthly limit', class: 'num', cell: r => usd(r.limitUsd) },
          ]}
        />
      )}
      {envs.length > 0 && (
        <form onSubmit={submit} class="inline">
          <Select id="budget-env" label="Environment" options={envs} value={env || envs[0]} set={setEnv} />
          <Field id="budget-usd" label="Monthly limit (USD)" value={limit} set={setLimit} required />
          <button type="submit" disabled={busy || !limit.trim()}>
            Set budget
          </button>
          <ErrorBox error={failure} />
        </form>
      )}
    </section>
  );
}

/** One environment's test users, each with a Revoke button (its tokens there stop working). */
function TestUserList({ appId, env, revoke }: { appId: string; env: string; revoke(name: string): void }) {
  const { data, error } = useData(() => gql(TestUsersQuery, { appId, env }));
  return (
    <>
      <ErrorBox error={error} />
      {data && !data.testUsers.length && <p class="muted">No test users in {env} yet.</p>}
      {data && data.testUsers.length > 0 && (
        <DataTable
          caption={`Test users of ${env}`}
          rows={data.testUsers}
          keyOf={u => u.userId}
          columns={[
            { label: 'Name', cell: u => u.name },
            { label: 'User id', cell: u => <code>{u.userId}</code> },
            { label: 'Created', cell: u => when(u.createdAt) },
            { label: 'Live tokens', cell: u => (u.hasLiveTokens ? 'yes' : 'none') },
            {
              label: 'Action',
              cell: u => (
                <button type="button" class="secondary" disabled={!u.hasLiveTokens} onClick={() => revoke(u.name)} aria-label={`Revoke ${u.name}`}>
                  Revoke
                </button>
              ),
            },
          ]}
        />
      )}
    </>
  );
}

function TestUsers({ appId, envs }: { appId: string; envs: string[] }) {
  const [env, setEnv] = useState('');
  const [name, setName] = useState('');
  const [minted, setMinted] = useState<{ userId: string; token: string; expiresAt: string } | null>(null);
  const [copied, setCopied] = useState('');
  const [changes, setChanges] = useState(0);
  const { failure, busy, run } = useAction();
  const chosenEnv = env || envs[0];
  const submit = (event: Event) => {
    event.preventDefault();
    run(async () => {
      setCopied('');
      setMinted((await gql(MintTestUser, { appId, env: chosenEnv, name })).createTestUser);
      setChanges(c => c + 1);
    });
  };
  const revoke = (userName: string) =>
    run(async () => {
      const { revokeTestUser: r } = await gql(RevokeTestUser, { appId, env: chosenEnv, name: userName });
      setMinted(null);
      setCopied(`${r.userId}: ${r.revoked} token(s) revoked in ${r.env}.`);
      setChanges(c => c + 1);
    });
  const copy = () =>
    run(async () => {
      await navigator.clipboard.writeText(minted!.token);
      setCopied('The token was copied.');
    });
  return (
    <section aria-labelledby="test-users-title">
      <h2 id="test-users-title">Test users</h2>
      {!envs.length && <p>Deploy a test environment (any name but prod) to mint test users.</p>}
      {envs.length > 0 && (
        <form onSubmit={submit} class="inline">
          <Select id="test-user-env" label="Environment" options={envs} value={chosenEnv} set={setEnv} />
          <Field id="test-user-name" label="Test user name" value={name} set={setName} required />
          <button type="submit" disabled={busy || !name.trim()}>
            Mint token
          </button>
        </form>
      )}
      <ErrorBox error={failure} />
      {minted && (
        <section class="panel" aria-label="New test-session token">
          <p>
            <strong>{minted.userId}</strong>: this token is shown only now; it works until {when(minted.expiresAt)}. Minting the same name again gives
            the same user a new token.
          </p>
          <p class="token">
            <code id="minted-token">{minted.token}</code>{' '}
            <button type="button" onClick={copy} aria-describedby="minted-token">
              Copy token
            </button>
          </p>
        </section>
      )}
      {copied && <Notice text={copied} />}
      {envs.length > 0 && <TestUserList key={`${chosenEnv}:${changes}`} appId={appId} env={chosenEnv} revoke={revoke} />}
    </section>
  );
}

export function AppPage({ appId }: { appId: string }) {
  const { data, error, loading, reload } = useData(() => gql(AppsQuery));
  const [notice, setNotice] = useState('');
  const app = data?.apps.find(a => a.id === appId);
  return (
    <Page title={app ? app.name : 'App'}>
      <p>
        <a href="#/apps">← All apps</a>
      </p>
      {notice && <Notice text={notice} />}
      <ErrorBox error={error} />
      {loading && !data && <Loading />}
      {data && !app && <p>No app {appId} among yours.</p>}
      {app && (
        <>
          <section aria-labelledby="envs-title">
            <h2 id="envs-title">Environments</h2>
            {!app.environments.length && <p>Nothing deployed yet.</p>}
            <ul class="envs">
              {app.environments.map(env => (
                <li key={`${env}:${notice}`}>
                  <strong>{env}</strong>{' '}
                  {env !== 'prod' && (
                    <a href={`#/apps/${app.id}/data/${env}`} aria-label={`Browse the data of ${env}`}>
                      Browse data
                    </a>
                  )}
                  <SchemaHistory appId={app.id} env={env} />
                </li>
              ))}
            </ul>
          </section>
          <DeployForm
            appId={app.id}
            deployed={text => {
              setNotice(text);
              reload();
            }}
          />
          <AppUrls app={app} changed={reload} />
          <TestUsers appId={app.id} envs={testEnvs(app.environments)} />
          <Budgets key={notice} appId={app.id} envs={testEnvs(app.environments)} />
          <AppSpend key={`spend:${notice}`} appId={app.id} envs={app.environments} />
        </>
      )}
    </Page>
  );
}
