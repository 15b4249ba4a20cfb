// "Attacker" listeners on 127.0.0.1 for egress tests: one HTTP server per exfiltration class (so
// a proxy refusal's port names the class it stopped), each recording every TCP connection and
// request it gets, WebSocket upgrades included, and one UDP socket recording every datagram (a
// WebRTC STUN binding request). Anything recorded is a leak.
import { createSocket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Attacker {
  readonly name: string;
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** TCP connections accepted (a preconnect counts even without a request). */
  connections: number;
  /** `METHOD /path?query` of every request and upgrade, in order. */
  readonly requests: string[];
}

export interface Attackers {
  readonly byName: ReadonlyMap<string, Attacker>;
  get(name: string): Attacker;
  /** The UDP port and what reached it. */
  readonly udp: { port: number; datagrams: number };
  /** Names of the classes whose attacker saw a connection, a request or a datagram. */
  reached(): string[];
  close(): Promise<void>;
}

/** Starts one HTTP attacker per name and one UDP listener (named `webrtc`). */
export async function startAttackers(names: readonly string[]): Promise<Attackers> {
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const byName = new Map<string, Attacker>();
  for (const name of names) {
    const server = createServer((request, response) => {
      attacker.requests.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'text/plain' }).end('stolen\n');
    });
    server.on('upgrade', (request, socket) => {
      attacker.requests.push(`UPGRADE ${request.url}`);
      socket.destroy();
    });
    server.on('connection', (socket) => {
      attacker.connections += 1;
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const attacker: Attacker = {
      name,
      port,
      url: `http://127.0.0.1:${port}`,
      connections: 0,
      requests: [],
    };
    servers.push(server);
    byName.set(name, attacker);
  }
  const udpSocket = createSocket('udp4');
  const udp = { port: 0, datagrams: 0 };
  udpSocket.on('message', () => {
    udp.datagrams += 1;
  });
  await new Promise<void>((resolve) => udpSocket.bind(0, '127.0.0.1', resolve));
  udp.port = udpSocket.address().port;
  return {
    byName,
    get(name) {
      const found = byName.get(name);
      if (!found) throw new Error(`no attacker named ${name}`);
      return found;
    },
    udp,
    reached() {
      const tcp = [...byName.values()]
        .filter((attacker) => attacker.connections > 0 || attacker.requests.length > 0)
        .map((attacker) => attacker.name);
      return udp.datagrams > 0 ? [...tcp, 'webrtc'] : tcp;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
      await new Promise<void>((resolve) => udpSocket.close(() => resolve()));
    },
  };
}
