// hostd's relay to a leased clone's jail-service, for real over loopback: hostd's app (FakeDriver
// clones) served by the Node adapter, and a small HTTP server standing in for the clone's
// jail-service that demands the clone's own token.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import { createAdaptorServer } from '@hono/node-server';
import { relayEndpoint } from '../../hostd/src/api/client.js';
import { MAX_RELAY_BODY_BYTES, serviceRelayPath } from '../../hostd/src/api/schema.js';
import { createApp } from '../../hostd/src/app.js';
import { CloneManager } from '../../hostd/src/clones/clone-manager.js';
import { FakeDriver } from './support/fake-jail-driver.js';
import { type FakeJailService, startFakeJailService } from './support/fake-jail-service.js';

const TOKEN = 'hostd-token-0123456789';
const CLONE_TOKEN = 'clone-token-9876543210';
const limits = { memoryMb: 1024, pids: 512, cpuPercent: 100 };

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('hostd relays to the leased clone’s jail-service', () => {
  let upstream: FakeJailService;
  let manager: CloneManager;
  let app: ReturnType<typeof createApp>;
  let hostd: Server;
  let hostdUrl: string;
  let serviceUrl = '';
  const auth = { authorization: `Bearer ${TOKEN}` };

  before(async () => {
    upstream = await startFakeJailService(CLONE_TOKEN);
    serviceUrl = upstream.url;
    const driver = new FakeDriver({ service: () => ({ url: serviceUrl, token: CLONE_TOKEN }) });
    manager = new CloneManager({
      driver,
      defaultLimits: limits,
      defaultDisplay: false,
      proxyPort: 0,
      poolSize: 0,
      startTimeoutMs: 5000,
    });
    app = createApp({ token: TOKEN, manager, driver });
    hostd = createAdaptorServer({ fetch: app.fetch }) as Server;
    hostdUrl = await listen(hostd);
  });
  afterEach(() => {
    upstream.requests.length = 0;
    serviceUrl = upstream.url;
  });
  after(async () => {
    hostd.closeAllConnections();
    hostd.close();
    await manager.close();
    await upstream.close();
  });

  const lease = () => manager.create({ taskId: 'relay' });

  it('forwards method, path, query, headers and body with the clone’s token, and answers what it answered', async () => {
    const clone = await lease();
    const endpoint = relayEndpoint(hostdUrl, TOKEN, clone);
    assert.equal(endpoint.url, `${hostdUrl}${serviceRelayPath(clone)}`);
    const got = await fetch(`${endpoint.url}/echo/a%20b?x=1&y=two%20words`, {
      headers: { authorization: `Bearer ${endpoint.token}`, 'x-probe': 'p', 'clawdie-lease': 'l' },
    });
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('x-upstream'), 'echo');
    const seen = (await got.json()) as Record<string, unknown>;
    assert.equal(seen.method, 'GET');
    assert.equal(seen.url, '/echo/a%20b?x=1&y=two%20words');
    const headers = seen.headers as Record<string, string>;
    assert.equal(headers.authorization, `Bearer ${CLONE_TOKEN}`);
    assert.equal(headers['x-probe'], 'p');
    assert.equal(headers['clawdie-lease'], undefined);
    assert.ok(!JSON.stringify(seen).includes(TOKEN), 'hostd’s token never reaches the clone');

    const posted = await fetch(`${endpoint.url}/echo`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'click', x: 3 }),
    });
    assert.equal(posted.status, 201);
    const echoed = (await posted.json()) as Record<string, unknown>;
    assert.equal(echoed.method, 'POST');
    assert.equal(echoed.body, '{"action":"click","x":3}');
    assert.equal((echoed.headers as Record<string, string>)['content-type'], 'application/json');
    const unauthorized = await fetch(`${upstream.url}/echo`);
    assert.equal(unauthorized.status, 401, 'the stand-in checks its own bearer');
  });

  it('refuses without hostd’s bearer (401) and under a lease that is not the clone’s current one', async () => {
    const [clone, other] = [await lease(), await lease()];
    const path = (name: string, leaseId: string) =>
      `${hostdUrl}${serviceRelayPath({ name, leaseId })}/echo`;
    const expect = async (url: string, status: number, code: string, headers = auth) => {
      const response = await fetch(url, { headers });
      assert.equal(response.status, status, url);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, code);
    };
    await expect(path(clone.name, clone.leaseId), 401, 'UNAUTHORIZED', {
      authorization: `Bearer ${CLONE_TOKEN}`,
    });
    await expect(path(clone.name, other.leaseId), 409, 'LEASE_MISMATCH');
    await expect(path(clone.name, 'x'.repeat(32)), 404, 'LEASE_NOT_FOUND');
    await manager.destroy(other.name, other.leaseId);
    await expect(path(other.name, other.leaseId), 404, 'CLONE_NOT_FOUND');
    assert.equal(upstream.requests.length, 0, 'nothing refused reached the clone');
  });

  it('relays a 5 MB upload while hostd’s own routes still refuse 5 MB (413), and bounds the relay', async () => {
    const clone = await lease();
    const base = relayEndpoint(hostdUrl, TOKEN, clone).url;
    const upload = new Uint8Array(5 * 1024 * 1024).fill(7);
    const relayed = await fetch(`${base}/upload`, { method: 'POST', headers: auth, body: upload });
    assert.equal(relayed.status, 200);
    assert.deepEqual(await relayed.json(), { bytes: upload.byteLength });
    const own = await app.request('/clones', { method: 'POST', headers: auth, body: upload });
    assert.equal(own.status, 413);
    // Chunked, with no length to check up front: refused once the count passes the bound.
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        if (sent > MAX_RELAY_BODY_BYTES + 2 * chunk.byteLength) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const over = await app.request(`${serviceRelayPath(clone)}/upload`, {
      method: 'POST',
      headers: auth,
      body: endless,
      duplex: 'half',
    } as RequestInit);
    assert.equal(over.status, 413);
    assert.equal(((await over.json()) as { error: { code: string } }).error.code, 'BODY_TOO_LARGE');
  });

  it('streams the answer chunk by chunk, and the caller going away aborts the upstream request', {
    timeout: 10_000,
  }, async () => {
    const clone = await lease();
    const controller = new AbortController();
    const response = await fetch(`${relayEndpoint(hostdUrl, TOKEN, clone).url}/stream`, {
      headers: auth,
      signal: controller.signal,
    });
    assert.equal(response.headers.get('content-type'), 'multipart/x-mixed-replace; boundary=f');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    // Frame 2 is sent 200 ms after frame 1, and the upstream response never ends by itself.
    assert.match(first, /frame 1/);
    assert.doesNotMatch(first, /frame 2/, 'frame 1 came on its own, not buffered with frame 2');
    const second = await reader.read();
    assert.match(new TextDecoder().decode(second.value), /frame 2/);
    controller.abort();
    await upstream.closed('/stream', 5000);
  });

  it('aborts the upstream request when the caller gives up before the clone answered', {
    timeout: 10_000,
  }, async () => {
    const clone = await lease();
    const controller = new AbortController();
    const pending = fetch(`${relayEndpoint(hostdUrl, TOKEN, clone).url}/hang`, {
      headers: auth,
      signal: controller.signal,
    }).catch((error: unknown) => error);
    while (!upstream.requests.some((request) => request.url === '/hang')) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    controller.abort();
    assert.equal(((await pending) as Error).name, 'AbortError');
    await upstream.closed('/hang', 5000);
  });

  it('answers 502 CLONE_UNREACHABLE when the clone’s jail-service does not answer', async () => {
    const gone = createServer();
    serviceUrl = await listen(gone);
    gone.close();
    const clone = await lease();
    const response = await fetch(`${relayEndpoint(hostdUrl, TOKEN, clone).url}/echo`, {
      headers: auth,
    });
    assert.equal(response.status, 502);
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'CLONE_UNREACHABLE');
    assert.match(body.error.message, /ECONNREFUSED/);
  });

  it('costs one more hop: the p50 of 30 relayed 100 KB answers against 30 direct ones', async () => {
    const clone = await lease();
    const once = async (url: string, token: string) => {
      const started = performance.now();
      const response = await fetch(`${url}/image`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal((await response.arrayBuffer()).byteLength, 100 * 1024);
      return performance.now() - started;
    };
    const relay = relayEndpoint(hostdUrl, TOKEN, clone).url;
    const times = { direct: [] as number[], relayed: [] as number[] };
    // Interleaved after a warm-up, so both see the same load and open connections.
    for (let i = -3; i < 30; i += 1) {
      const direct = await once(upstream.url, CLONE_TOKEN);
      const relayed = await once(relay, TOKEN);
      if (i < 0) continue;
      times.direct.push(direct);
      times.relayed.push(relayed);
    }
    const p50 = (values: number[]) => values.sort((a, b) => a - b)[15] ?? 0;
    const [direct, relayed] = [p50(times.direct), p50(times.relayed)];
    console.error(
      `# relay: p50 ${relayed.toFixed(2)} ms relayed vs ${direct.toFixed(2)} ms direct (100 KB)`,
    );
    assert.ok(relayed < direct + 50, `the hop adds ${relayed - direct} ms`);
  });
});
