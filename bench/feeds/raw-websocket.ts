/**
 * The client side of WebSocket (RFC 6455) by hand over a TCP socket, for benchmarks that hold
 * thousands of sockets in one process (a `ws` client per socket parses more slowly than one
 * server thread sends). It does what a real client must to stay connected: masks what it sends
 * and answers every ping with a pong carrying the ping's payload (graphql-ws' server pings every
 * 12 s and terminates a socket that has not answered by the next ping).
 */
import { randomBytes } from 'node:crypto';

export const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** A client's masked frame (RFC 6455 §5.2: clients must mask what they send), FIN set. */
export function clientFrame(data: string | Buffer, opcode: number = OPCODE.text): Buffer {
  const payload = Buffer.from(data);
  const length = payload.length;
  const head =
    length > 0xffff
      ? Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | 127]), bigLength(length)])
      : length > 125
        ? Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 255])
        : Buffer.from([0x80 | opcode, 0x80 | length]);
  const mask = randomBytes(4);
  for (let i = 0; i < length; i++) payload[i] ^= mask[i & 3];
  return Buffer.concat([head, mask, payload]);
}

function bigLength(length: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(length));
  return out;
}

/**
 * An incremental reader of a server's (unmasked) frames: feed it every chunk the socket reads;
 * it calls `onFrame` once per complete frame, whether the frame came split over chunks or several
 * came in one. The common case, one whole frame per chunk, copies nothing.
 */
export function frameReader(onFrame: (opcode: number, payload: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer | null = null;
  return chunk => {
    const buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = null;
    let offset = 0;
    while (buffer.length - offset >= 2) {
      const short = buffer[offset + 1] & 0x7f;
      const header = short === 126 ? 4 : short === 127 ? 10 : 2;
      if (buffer.length - offset < header) break;
      const length = short === 126 ? buffer.readUInt16BE(offset + 2) : short === 127 ? Number(buffer.readBigUInt64BE(offset + 2)) : short;
      if (buffer.length - offset - header < length) break;
      onFrame(buffer[offset] & 0x0f, buffer.subarray(offset + header, offset + header + length));
      offset += header + length;
    }
    if (offset < buffer.length) pending = Buffer.from(buffer.subarray(offset));
  };
}

/** The HTTP/1.1 upgrade request of a graphql-transport-ws client. */
export function upgradeRequest(host: string, path = '/graphql'): string {
  return (
    `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n`
  );
}
