import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { type WebSocket, WebSocket as WebSocketClient, WebSocketServer } from 'ws';
import { CLOSE_CODES, guardBackpressure, sendTextFrame, textFrame } from './websocket.routes.js';

/** Just enough of a ws socket: a send buffer that only grows, and close/terminate spies. */
function fakeSocket() {
  const socket = Object.assign(new EventEmitter(), {
    bufferedAmount: 0,
    sent: [] as string[],
    send(data: string) {
      socket.sent.push(data);
      socket.bufferedAmount += data.length;
    },
    close: vi.fn(),
    terminate: vi.fn(),
  });
  return socket;
}

describe('backpressure', () => {
  it('sends while the buffer is under the limit, then closes a slow consumer with 4413', () => {
    vi.useFakeTimers();
    const socket = fakeSocket();
    guardBackpressure(socket as unknown as WebSocket, 100);
    for (let i = 0; i < 20; i++) (socket as unknown as WebSocket).send('x'.repeat(30));
    // 4 sends fit (0, 30, 60, 90 <= 100 buffered before each); the 5th finds 120 > 100.
    expect(socket.sent).toHaveLength(4);
    expect(socket.close).toHaveBeenCalledTimes(1);
    expect(socket.close).toHaveBeenCalledWith(CLOSE_CODES.slowConsumer, expect.stringMatching(/slow consumer/i));
    vi.advanceTimersByTime(1000);
    expect(socket.terminate).toHaveBeenCalled();
    vi.useRealTimers();
  });

  it('a consumer that keeps up is never cut off', () => {
    const socket = fakeSocket();
    guardBackpressure(socket as unknown as WebSocket, 100);
    for (let i = 0; i < 1000; i++) {
      (socket as unknown as WebSocket).send('x'.repeat(30));
      socket.bufferedAmount = 0; // drained by the network
    }
    expect(socket.sent).toHaveLength(1000);
    expect(socket.close).not.toHaveBeenCalled();
  });
});

describe('prebuilt text frames', () => {
  it('frames each payload length class as RFC 6455 says (unmasked, FIN, text)', () => {
    for (const length of [0, 125, 126, 65535, 65536]) {
      const { wire, payload } = textFrame('x'.repeat(length));
      expect(wire[0]).toBe(0x81);
      const short = wire[1];
      expect(short & 0x80).toBe(0); // unmasked
      const declared = short === 126 ? wire.readUInt16BE(2) : short === 127 ? Number(wire.readBigUInt64BE(2)) : short;
      expect(declared).toBe(length);
      expect(payload.length).toBe(length);
      expect(wire.length - payload.length).toBe(length < 126 ? 2 : length < 65536 ? 4 : 10);
    }
  });

  /** A ws server and client on a loopback port; `server` is the server side of the one connection. */
  async function pair() {
    const wss = new WebSocketServer({ port: 0, perMessageDeflate: false });
    await new Promise(resolve => wss.once('listening', resolve));
    const serverSide = new Promise<WebSocket>(resolve => wss.once('connection', resolve));
    const client = new WebSocketClient(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`);
    await new Promise(resolve => client.once('open', resolve));
    const server = await serverSide;
    const received: { text: string; binary: boolean }[] = [];
    client.on('message', (data, binary) => received.push({ text: String(data), binary }));
    const close = async () => {
      client.terminate();
      await new Promise(resolve => wss.close(resolve));
    };
    return { server, received, close };
  }

  it("writes the frame in one buffer on ws' own TCP socket, and the client reads text messages in order", async () => {
    const { server, received, close } = await pair();
    try {
      const tcp = (server as unknown as { _socket: { write: (chunk: Buffer) => boolean } })._socket;
      const write = vi.spyOn(tcp, 'write');
      const big = 'y'.repeat(70_000);
      for (const message of ['{"a":1}', big, 'zé']) sendTextFrame(server, textFrame(message));
      server.send('after'); // ws' own send still interleaves in order
      await vi.waitFor(() => expect(received).toHaveLength(4));
      expect(received).toEqual([
        { text: '{"a":1}', binary: false },
        { text: big, binary: false },
        { text: 'zé', binary: false },
        { text: 'after', binary: false },
      ]);
      // If this fails after a ws upgrade, its internals changed: sendTextFrame falls back to send (slower, still correct).
      expect(write.mock.calls[0][0]).toEqual(textFrame('{"a":1}').wire);
    } finally {
      await close();
    }
  });

  it("falls back to ws' send while its sender is busy", async () => {
    const { server, received, close } = await pair();
    try {
      const sender = (server as unknown as { _sender: { _state: number; _queue: unknown[]; dequeue(): void } })._sender;
      const send = vi.spyOn(server, 'send');
      sender._state = 1; // as while compressing a previous message
      sendTextFrame(server, textFrame('queued'));
      expect(send).toHaveBeenCalledTimes(1);
      expect(sender._queue).toHaveLength(1); // queued behind the "compression", not written ahead of it
      sender._state = 0;
      sender.dequeue();
      await vi.waitFor(() => expect(received).toEqual([{ text: 'queued', binary: false }]));
    } finally {
      await close();
    }
  });
});
