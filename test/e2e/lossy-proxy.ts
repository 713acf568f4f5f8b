/**
 * A loopback TCP proxy that delays what it forwards as a lossy link does to a WebSocket
 * connection (examples/multiplayer/link.ts): each chunk takes the latency ± the jitter, a lost
 * one arrives a retransmission timeout later, and nothing overtakes what was sent before it (TCP
 * delivers in order: the chunks behind a lost one wait for it). It listens on 127.0.0.1 only and
 * carries everything, the HTTP matchmaking requests and the WebSocket alike.
 */

import type { AddressInfo } from 'node:net';
import { createServer, type Socket, connect as tcpConnect } from 'node:net';
import { LinkDirection, type LinkSettings } from '../../examples/multiplayer/link.ts';

/** A running proxy. */
export interface LossyProxy {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /** Chunks delayed by a retransmission so far, both directions of every connection. */
  readonly retransmissions: number;
  /** Drops every connection and stops listening. */
  close(): Promise<void>;
}

/** mulberry32: a seeded generator, so a run's losses can be replayed. */
function seeded(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Starts a proxy to `127.0.0.1:targetPort` with `settings` in both directions. */
export function startLossyProxy(
  targetPort: number,
  settings: LinkSettings,
  seed = 1,
): Promise<LossyProxy> {
  const random = seeded(seed);
  const sockets = new Set<Socket>();
  const directions: LinkDirection[] = [];
  const server = createServer((client) => {
    const upstream = tcpConnect(targetPort, '127.0.0.1');
    const up = new LinkDirection(settings, random);
    const down = new LinkDirection(settings, random);
    directions.push(up, down);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => up.send(() => upstream.write(chunk)));
    upstream.on('data', (chunk) => down.send(() => client.write(chunk)));
    client.on('end', () => up.send(() => upstream.end()));
    upstream.on('end', () => down.send(() => client.end()));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        get retransmissions() {
          return directions.reduce((sum, d) => sum + d.retransmissions, 0);
        },
        close: () =>
          new Promise<void>((done) => {
            for (const direction of directions) direction.close();
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
