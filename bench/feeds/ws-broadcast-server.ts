/**
 * The fan-out bench's peer (`fanout.ts --peers`): a plain `ws` server that broadcasts one change to
 * every socket, with no GraphQL, database or access check: what one thread's socket writes cost
 * for the same frames. It speaks just enough graphql-transport-ws for the bench's receiver (an ack
 * to `connection_init`; the subscribe is not read), keeps graphql-ws' keepalive (a ping every 12 s)
 * so both servers ask the same of the receivers, and answers the same IPC requests as
 * fanout-server.ts: `change` sends `{"id":"1","type":"next","payload":…}` to every socket with
 * `ws.send`, as a hand-written broadcast does.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

const members = Number(process.argv[2] ?? 250);
const KEEPALIVE_MS = 12_000;
const server = createServer((_req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({ server, path: '/graphql', perMessageDeflate: false });
wss.on('connection', socket => {
  socket.on('message', data => {
    if (String(data).includes('"connection_init"')) socket.send('{"type":"connection_ack"}');
  });
  const ping = setInterval(() => socket.ping(), KEEPALIVE_MS);
  socket.on('close', () => clearInterval(ping));
});
await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

let role: 'reader' | 'writer' = 'reader';
process.on('message', (message: { type: string; id: number }) => {
  if (message.type === 'change') {
    role = role === 'reader' ? 'writer' : 'reader';
    const sentAt = performance.timeOrigin + performance.now();
    const frame = JSON.stringify({
      id: '1',
      type: 'next',
      payload: { data: { membersLive: { op: 'update', row: { id: 'peer', role, state: 'active' } } } },
    });
    for (const socket of wss.clients) socket.send(frame);
    process.send!({ id: message.id, sentAt, role });
  } else if (message.type === 'memory') {
    for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
    process.send!({ id: message.id, memory: process.memoryUsage() });
  } else if (message.type === 'stop') {
    for (const socket of wss.clients) socket.terminate();
    server.close(() => process.exit(0));
  } else {
    process.send!({ id: message.id, error: `the ws peer does not do ${message.type}` });
  }
});
process.send!({ ready: true, url, tokens: Array.from({ length: members }, (_, i) => `peer-${i}`), resourceId: 'peer' });
