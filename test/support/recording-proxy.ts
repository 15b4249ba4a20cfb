// A loopback HTTP proxy that records every host a browser asks it for (plain requests and CONNECT
// tunnels), serves one fixture page for `pageHost`, and refuses everything else with 403.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordingProxy {
  /** `http://127.0.0.1:<port>`, the form CLAWDIE_JAIL_PROXY takes. */
  url: string;
  /** Every request seen, as `GET http://host/path` or `CONNECT host:port`, in order. */
  requests: string[];
  /** The hosts (without port) of `requests`. */
  hosts(): string[];
  close(): Promise<void>;
}

export async function startRecordingProxy(pageHost: string, html: string): Promise<RecordingProxy> {
  const requests: string[] = [];
  const hostsSeen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const target = request.url ?? '';
    requests.push(`${request.method} ${target}`);
    let host = '';
    try {
      host = new URL(target).hostname;
    } catch {
      host = (request.headers.host ?? '').split(':')[0] ?? '';
    }
    hostsSeen.push(host);
    if (host === pageHost) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    response.writeHead(403, { 'content-type': 'text/plain' }).end('refused by the test proxy');
  });
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    const target = request.url ?? '';
    requests.push(`CONNECT ${target}`);
    hostsSeen.push(target.replace(/:\d+$/, '').replace(/^\[|\]$/g, ''));
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hosts: () => [...hostsSeen],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
