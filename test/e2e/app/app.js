// The demo app: plain browser code against the SDK, as an app developer would write it.
// The e2e test drives it through its buttons and the small `window.demo` API below.
const $ = id => document.getElementById(id);
const config = await (await fetch('/config.json')).json();
// The SDK as any page can load it: a module script from the gateway itself (another origin here).
// A page that knows its gateway writes: import { createClient } from 'https://gateway.example/sdk/client.js';
const { createClient } = await import(`${config.gatewayUrl}/sdk/client.js`);
// No gatewayUrl: on a hosted app origin the SDK uses this origin's /_osg.
const gh = createClient({ clientId: config.clientId, redirectUri: `${location.origin}/` });

const demo = {
  gh,
  ready: false,
  error: null,
  session: null,
  /** Every feed event and status change, in order, for the test to inspect. */
  events: [],
  statuses: [],
  async createTeam(name) {
    const team = await gh.resource.create('team', { name });
    const link = await gh.resource(team.id).members.createInviteLink({ role: 'writer' });
    $('team').hidden = false;
    $('team-name').textContent = team.name;
    $('invite-link').textContent = link.url;
    return { id: team.id, inviteUrl: link.url };
  },
  /** The roster, kept current by members.live(): re-fetched (for display data) on every event and when the feed goes live. */
  watchMembers(resourceId) {
    const render = async () => {
      const roster = await gh.resource(resourceId).members.list();
      $('members').replaceChildren(
        ...roster.map(entry => {
          const li = document.createElement('li');
          li.dataset.userId = entry.userId;
          li.textContent = `${entry.userId} (${entry.role}, ${entry.state})`;
          return li;
        }),
      );
    };
    const feed = gh.resource(resourceId).members.live();
    for (const op of ['insert', 'update', 'delete']) {
      feed.on(op, row => {
        demo.events.push({ op, row });
        render();
      });
    }
    feed.on('status', status => {
      demo.statuses.push(status);
      $('feed-status').textContent = status;
      // After a reconnect the SDK reconciles a fresh snapshot (only the difference arrives as events);
      // the rendered list is re-read for its display data.
      if (status === 'live') render();
    });
    feed.on('error', error => demo.events.push({ op: 'error', message: String(error?.message ?? error) }));
    return render();
  },
};
window.demo = demo;

async function showSession() {
  demo.session = await gh.auth.getSession();
  const signedIn = demo.session.authenticated;
  if (signedIn) {
    const user = await gh.auth.getUser();
    $('who').textContent = `Signed in as ${user?.displayName ?? user?.handle ?? demo.session.userId} (${demo.session.userId})`;
  } else {
    $('who').textContent = 'Signed out';
    $('team').hidden = true;
  }
  $('sign-in').hidden = signedIn;
  $('sign-out').hidden = !signedIn;
}

$('sign-in').onclick = () => gh.auth.signIn();
$('sign-out').onclick = async () => {
  await gh.auth.signOut();
  await showSession();
};

try {
  const params = new URLSearchParams(location.search);
  if (params.has('code')) await gh.auth.handleRedirectCallback();
  if (params.get('invite') === 'accepted') $('notice').textContent = `You joined ${params.get('resource')}.`;
  await showSession();
} catch (error) {
  demo.error = `${error.code ?? error.name}: ${error.message}`;
  $('who').textContent = `Error: ${demo.error}`;
}
demo.ready = true;
