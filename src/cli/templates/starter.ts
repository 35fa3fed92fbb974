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

/** The page: sign in, then the user's tasks, live; a form adds one. `gateway` and `clientId` may be empty. */
export function starterPage(gateway: string, clientId: string): string {
  return `<!doctype html>
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
    <script type="module">
      // Written by gatehouse init. On the app's hosted origin createClient() needs no options;
      // elsewhere (a dev server on a registered origin) it needs the gateway and the app's client id.
      const GATEWAY = ${JSON.stringify(gateway)};
      const CLIENT_ID = ${JSON.stringify(clientId)};
      const sdk = GATEWAY ? \`\${GATEWAY}/sdk/client.js\` : '/_osg/sdk/client.js';
      const { createClient } = await import(sdk);
      const client = createClient(GATEWAY ? { gatewayUrl: GATEWAY, clientId: CLIENT_ID } : {});

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
        const render = () => {
          list.replaceChildren(
            ...feed.rows().map(task => Object.assign(document.createElement('li'), { textContent: \`\${task.done ? '✓' : '○'} \${task.title}\` })),
          );
        };
        // The live feed: its snapshot, then every insert, update and delete, from any tab or user.
        const feed = tasks.live().on('insert', render).on('update', render).on('delete', render).on('status', render);
        const form = document.getElementById('add');
        form.hidden = false;
        form.onsubmit = async event => {
          event.preventDefault();
          await tasks.insert({ title: form.title.value, done: false });
          form.reset();
        };
      }
    </script>
  </body>
</html>
`;
}
