// A plain HTTP server on 127.0.0.1 at a free port for tests that script answers by hand, with the
// `before`/`after` of node:test wired: listening before the suite's tests, every connection
// dropped and the server closed after.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, set once the suite's `before` ran. */
  readonly origin: string;
  /** Drops every open connection (a hung answer a test is done with). */
  closeAllConnections(): void;
}

/** Call inside a `describe`: listens in its `before`, closes in its `after`. */
export function loopbackServerForSuite(listener: RequestListener): LoopbackServer {
  const server = createServer(listener);
  const state = { origin: '', closeAllConnections: () => server.closeAllConnections() };
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  return state;
}
