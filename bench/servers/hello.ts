/** Baseline (a): bare node:http answering a small JSON body. The ceiling of this machine and load generator. */
import { createServer } from 'node:http';
import { announce, closeServer, listen, main, onShutdown, sendJson } from './lifecycle.js';

main(async () => {
  const server = createServer((_req, res) => sendJson(res, 200, { hello: 'world' }));
  const url = await listen(server);
  onShutdown(() => closeServer(server));
  announce({ url });
});
