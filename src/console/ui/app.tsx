/**
 * The console's frame: who is signed in (or the way to sign in), the navigation, and the page the
 * address's hash names (#/invitations, …), so links and the back button work without server routes.
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AccountPage, AccountQuery } from './account.js';
import { ApiError, SIGNED_OUT, gql, signOut } from './api.js';
import { DeleteAccountPage } from './delete-account.js';
import { InvitationsPage } from './invitations.js';
import { ErrorBox, Loading } from './parts.js';
import { AppPage } from './app-detail.js';
import { AppsPage } from './apps.js';
import { DataPage } from './data-browser.js';
import { ConsoleDeveloperQuery, DeveloperPage } from './developer.js';
import { ResourcesPage } from './resources.js';
import { UsagePage } from './usage.js';
import { WalletPage } from './wallet.js';

const PAGES: { path: string; label: string; page: ComponentType }[] = [
  { path: 'account', label: 'Account', page: AccountPage },
  { path: 'invitations', label: 'Invitations', page: InvitationsPage },
  { path: 'resources', label: 'Your resources', page: ResourcesPage },
  { path: 'wallet', label: 'Wallet', page: WalletPage },
  { path: 'usage', label: 'Usage', page: UsagePage },
];

/**
 * The developer's pages, shown once a developer is linked. "Usage" (spend per day) is built
 * beside these: its entry goes after Apps.
 */
const DEVELOPER_PAGES = [{ path: 'apps', label: 'Apps' }];

/** #/apps/<appId> and #/apps/<appId>/data/<env>. */
function DeveloperRoute({ route }: { route: string }) {
  const [, appId, section, env] = route.split('/');
  if (appId && section === 'data' && env) return <DataPage key={`${appId}/${env}`} appId={appId} env={env} />;
  if (appId) return <AppPage key={appId} appId={appId} />;
  return <AppsPage />;
}

const routeOf = () => location.hash.replace(/^#\/?/, '') || 'account';

function useRoute() {
  const [route, setRoute] = useState(routeOf);
  useEffect(() => {
    const changed = () => setRoute(routeOf());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

type Session = { state: 'loading' } | { state: 'out'; why?: string } | { state: 'in'; name: string } | { state: 'failed'; error: unknown };

function SignIn({ why }: { why?: string }) {
  return (
    <main id="main" class="signin">
      <h1>Gatehouse console</h1>
      {why && <p role="status">{why}</p>}
      <p>Your account, your invitations and resources in every app, and your wallet.</p>
      <p>
        <a class="button" href="/console/signin">
          Sign in
        </a>
      </p>
    </main>
  );
}

export function App() {
  const route = useRoute();
  const [session, setSession] = useState<Session>({ state: 'loading' });
  useEffect(() => {
    gql(AccountQuery).then(
      ({ myDashboardAccount: a }) => setSession({ state: 'in', name: a.displayName ?? a.handle ?? a.id }),
      error => setSession(error instanceof ApiError && SIGNED_OUT.has(error.code) ? { state: 'out' } : { state: 'failed', error }),
    );
  }, []);

  // Whether a developer is linked: the developer pages show in the navigation then.
  const [developer, setDeveloper] = useState(false);
  const [developerTurn, setDeveloperTurn] = useState(0);
  const recheckDeveloper = () => setDeveloperTurn(t => t + 1);
  useEffect(() => {
    if (session.state !== 'in') return;
    gql(ConsoleDeveloperQuery).then(
      d => setDeveloper(!!d.consoleDeveloper),
      () => setDeveloper(false),
    );
  }, [session.state, developerTurn]);

  if (session.state === 'loading') return <Loading />;
  if (session.state === 'out') return <SignIn why={session.why} />;
  if (session.state === 'failed') return <ErrorBox error={session.error} />;

  const leave = async () => {
    await signOut();
    setSession({ state: 'out', why: 'You signed out.' });
  };
  const current = PAGES.find(p => p.path === route);
  const Current = current?.page;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <p class="brand">Gatehouse console</p>
        <p class="who">
          Signed in as <strong>{session.name}</strong>{' '}
          <button type="button" class="link" onClick={leave}>
            Sign out
          </button>
        </p>
      </header>
      <nav aria-label="Console">
        <ul>
          {PAGES.map(p => (
            <li key={p.path}>
              <a href={`#/${p.path}`} aria-current={p.path === route ? 'page' : undefined}>
                {p.label}
              </a>
            </li>
          ))}
          <li>
            <a href="#/developer" aria-current={route === 'developer' ? 'page' : undefined}>
              Developer
            </a>
          </li>
          {developer &&
            DEVELOPER_PAGES.map(p => (
              <li key={p.path}>
                <a href={`#/${p.path}`} aria-current={route === p.path || route.startsWith(`${p.path}/`) ? 'page' : undefined}>
                  {p.label}
                </a>
              </li>
            ))}
          <li>
            <a href="#/delete-account" class="danger-link" aria-current={route === 'delete-account' ? 'page' : undefined}>
              Delete account
            </a>
          </li>
        </ul>
      </nav>
      <main id="main">
        {route === 'delete-account' ? (
          <DeleteAccountPage deleted={why => setSession({ state: 'out', why })} />
        ) : route === 'developer' ? (
          <DeveloperPage changed={recheckDeveloper} />
        ) : route === 'apps' || route.startsWith('apps/') ? (
          <DeveloperRoute route={route} />
        ) : Current ? (
          <Current />
        ) : (
          <p>
            No such page. <a href="#/account">Open your account</a>.
          </p>
        )}
      </main>
    </>
  );
}
