// A small real HTTP server on loopback standing in for a clone's jail-service in relay tests: it
// demands its own bearer token and records every request it was sent. Routes: `/echo*` (what it
// received, 201 for a POST), `/upload` (the body's size), `/image` (100 KB), `/stream` (a
// multipart feed: frame 1 now, frame 2 after 200 ms, then open until the caller goes away),
// `/hang` (never answers).
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  /** True once the response was ended by the server; the stream never ends on its own. */
  ended: boolean;
  /** Resolves when the connection of this request closed (the caller or relay went away). */
  closed: Promise<void>;
}

export interface FakeJailService {
  url: string;
  requests: SeenRequest[];
  /** Waits until the request to `url` has had its connection closed. */
  closed(url: string, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const IMAGE = Buffer.alloc(100 * 1024, 1);

export async function startFakeJailService(token: string): Promise<FakeJailService> {
  const requests: SeenRequest[] = [];
  const server = createServer(async (request, response) => {
    if (request.headers.authorization !== `Bearer ${token}`) {
      response.writeHead(401).end('bearer token required');
      return;
    }
    const seen: SeenRequest = {
      method: request.method ?? '',
      url: request.url ?? '',
      ended: false,
      closed: new Promise((resolve) => response.on('close', () => resolve())),
    };
    requests.push(seen);
    const end = (res: ServerResponse, status: number, body: string | Buffer, type: string) => {
      res.writeHead(status, { 'content-type': type, 'x-upstream': 'echo' }).end(body);
      seen.ended = true;
    };
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of request) chunks.push(chunk as Buffer);
    } catch {
      return; // the sender gave up mid-body (the relay's bound, an abort)
    }
    const body = Buffer.concat(chunks);
    if (seen.url.startsWith('/echo')) {
      const echo = {
        method: seen.method,
        url: seen.url,
        headers: request.headers,
        body: `${body}`,
      };
      end(response, seen.method === 'POST' ? 201 : 200, JSON.stringify(echo), 'application/json');
    } else if (seen.url === '/upload') {
      end(response, 200, JSON.stringify({ bytes: body.byteLength }), 'application/json');
    } else if (seen.url === '/image') {
      end(response, 200, IMAGE, 'image/jpeg');
    } else if (seen.url === '/stream') {
      response.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=f' });
      response.write('--f\r\ncontent-type: text/plain\r\n\r\nframe 1\r\n');
      const later = setTimeout(
        () => response.write('--f\r\ncontent-type: text/plain\r\n\r\nframe 2\r\n'),
        200,
      );
      response.on('close', () => clearTimeout(later));
    } else if (seen.url === '/hang') {
      // Never answers: only the caller (or relay) going away ends it.
    } else end(response, 404, 'no such route', 'text/plain');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    async closed(url, timeoutMs) {
      const seen = requests.find((request) => request.url === url);
      if (!seen) throw new Error(`no request to ${url}`);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${url} still open`)), timeoutMs);
      });
      await Promise.race([seen.closed, timeout]).finally(() => clearTimeout(timer));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
