import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { CLOSE_CODES, guardBackpressure } from './websocket.js';

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
