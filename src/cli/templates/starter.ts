/** What `gatehouse init` writes: the starter schema and the page that signs in and shows live rows. */

export const STARTER_SCHEMA = `import { defineSchema } from 'gatehouse/schema';

/** Deploy with \`gatehouse deploy\`; \`gatehouse typegen\` turns the tables into TypeScript row types. */
export default defineSchema({
  tables: {
    // Each signed-in user's own tasks (scope { kind: 'user' }); a board can share them.
    tasks: t => t.text('title').notNull().boolean('done').notNull().default(false).timestamps().index(['createdAt']),
  },
  resources: {
    board: r => r.visibility('members').defaultRole('writer').shares('tasks'),
  },
});
`;

/**
 * The page, for `gatehouse dev` and the app's hosted origin (`gatehouse publish`): markup and a
 * module script apart, as the origin's strict CSP wants (no inline script); the SDK comes from the
 * same origin (`/_osg/sdk/client.js`) and `createClient()` needs no options there.
 */
export const STARTER_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>My Gatehouse app</title>
  </head>
  <body>
    <main>
      <h1>Tasks</h1>
      <p id="status">Loading…</p>
      <button id="sign-in" hidden>Sign in</button>
      <form id="add" hidden><input name="title" placeholder="A new task" required /> <button>Add</button></form>
      <ul id="tasks"></ul>
    </main>
    <script type="module" src="/app.js"></script>
  </body>
</html>
`;

/** The page's script: sign in, then the user's tasks, live; the form adds one. */
export const STARTER_SCRIPT = `// Written by gatehouse init. Served by \`gatehouse dev\` or the app's hosted origin, which name the
// gateway and the app's client id to the SDK (/_osg/config.js), so createClient() takes no options.
import { createClient } from '/_osg/sdk/client.js';

const client = createClient();
const status = document.getElementById('status');
const list = document.getElementById('tasks');

if (new URL(location.href).searchParams.has('code')) await client.auth.handleRedirectCallback();
const session = await client.auth.getSession();
if (!session.authenticated) {
  status.textContent = 'Signed out.';
  const button = document.getElementById('sign-in');
  button.hidden = false;
  button.onclick = () => client.auth.signIn();
} else {
  status.textContent = \`Signed in as \${session.userId}.\`;
  const tasks = client.table('tasks');
  // The live feed: its snapshot, then every insert, update and delete, from any tab.
  const feed = tasks.select().live();
  const render = () =>
    list.replaceChildren(
      ...feed.rows().map(task => Object.assign(document.createElement('li'), { textContent: \`\${task.done ? '✓' : '○'} \${task.title}\` })),
    );
  for (const event of ['insert', 'update', 'delete', 'status']) feed.on(event, render);
  const form = document.getElementById('add');
  form.hidden = false;
  form.onsubmit = async event => {
    event.preventDefault();
    await tasks.insert({ title: form.title.value, done: false });
    form.reset();
  };
}
`;
