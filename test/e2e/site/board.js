// A page as `gatehouse publish` serves it: the SDK from this origin, createClient() with no options
// (the injected /_osg/config.js names the gateway and the app's client id).
import { createClient } from '/_osg/sdk/client.js';

const $ = id => document.getElementById(id);
const gh = createClient();

const board = {
  ready: false,
  error: null,
  session: null,
  statuses: [],
  /** A board's notes, live: its snapshot, then every note anyone writes there. */
  watch(boardId) {
    $('board').hidden = false;
    const feed = gh.resource(boardId).table('notes').select().live();
    const render = () =>
      $('notes').replaceChildren(
        ...feed.rows().map(note => Object.assign(document.createElement('li'), { textContent: `${note.body} (by ${note._creatorId})` })),
      );
    for (const op of ['insert', 'update', 'delete']) feed.on(op, render);
    feed.on('status', status => {
      board.statuses.push(status);
      $('feed-status').textContent = status;
      render();
    });
  },
};
window.board = board;

try {
  if (new URLSearchParams(location.search).has('code')) await gh.auth.handleRedirectCallback();
  board.session = await gh.auth.getSession();
  $('who').textContent = board.session.authenticated ? `Signed in as ${board.session.userId}` : 'Signed out';
  $('sign-in').hidden = board.session.authenticated;
  $('sign-in').onclick = () => gh.auth.signIn();
} catch (error) {
  board.error = `${error.code ?? error.name}: ${error.message}`;
  $('who').textContent = `Error: ${board.error}`;
}
board.ready = true;
