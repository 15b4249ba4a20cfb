// Isolation and egress tests against real clones (root): registered by linux-driver.test.ts.
// "The internet" is a local HTTP server on the host; nothing leaves this machine.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Clone, LeasedClone } from '../../../hostd/src/api/schema.js';
import { CloneManager } from '../../../hostd/src/clones/clone-manager.js';
import { createAddressPolicy } from '../../../hostd/src/proxy/address-policy.js';
import { createTestDriver, testNames } from './linux-harness.js';

const run = promisify(execFile);

/** Runs a Node script inside the clone's network namespace and returns what it printed. */
async function inClone(clone: Clone, script: string): Promise<string> {
  const netns = testNames(clone.index).netns;
  const { stdout } = await run(
    '/usr/sbin/ip',
    ['netns', 'exec', netns, process.execPath, '-e', script],
    {
      timeout: 15_000,
    },
  );
  return stdout.trim();
}

// Exits at once: an aborted fetch's connect attempt (dropped by nftables) would otherwise keep the
// process alive for undici's 10 s connect timeout.
const fetchScript = (url: string) =>
  `fetch(${JSON.stringify(url)}, { signal: AbortSignal.timeout(1500) })
     .then((r) => console.log('status ' + r.status), (e) => console.log('error ' + (e.cause?.code ?? e.name)))
     .finally(() => process.exit(0))`;

/** An HTTP request through the proxy with an absolute URL (what Chromium sends for http://). */
const proxiedGetScript = (proxy: string, url: string) => {
  const { hostname, port } = new URL(proxy);
  return `require('node:http').get({ host: ${JSON.stringify(hostname)}, port: ${port}, path: ${JSON.stringify(url)} },
     (r) => { let b = ''; r.on('data', (c) => b += c); r.on('end', () => console.log(r.statusCode + ' ' + b.trim())); })
     .on('error', (e) => console.log('error ' + e.code));`;
};

const connectScript = (proxy: string, target: string) => {
  const { hostname, port } = new URL(proxy);
  return `require('node:http').request({ host: ${JSON.stringify(hostname)}, port: ${port}, method: 'CONNECT', path: ${JSON.stringify(target)} })
     .on('connect', (r, s) => { console.log('connect ' + r.statusCode); s.destroy(); })
     .on('response', (r) => console.log('connect ' + r.statusCode))
     .on('error', (e) => console.log('error ' + e.code)).end();`;
};

export function registerIsolationTests(): void {
  describe('Linux clone isolation and egress', () => {
    let server: Server;
    let port = 0;
    let manager: CloneManager;
    let a: LeasedClone;
    let b: LeasedClone;

    before(async () => {
      server = createServer((_request, response) => response.end('hello from the test internet'));
      await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
      const address = server.address();
      port = typeof address === 'object' && address ? address.port : 0;
      manager = new CloneManager({
        driver: createTestDriver(),
        defaultLimits: { memoryMb: 2048, pids: 1024, cpuPercent: 200 },
        defaultDisplay: false,
        proxyPort: 3128,
        poolSize: 0,
        startTimeoutMs: 30_000,
        // The test internet is on the host's loopback: exactly its address:port is excepted.
        addressPolicy: createAddressPolicy({ internalExceptions: [`127.0.0.1:${port}`] }),
      });
      [a, b] = await Promise.all([
        manager.create({
          taskId: 'iso-a',
          allowedDomains: [`127.0.0.1:${port}`, `127.0.0.2:${port}`],
        }),
        manager.create({ taskId: 'iso-b', allowedDomains: [] }),
      ]);
    });
    after(async () => {
      await manager?.close();
      server?.closeAllConnections();
      server?.close();
    });

    it('hostd reaches each clone’s jail-service with its token', async () => {
      for (const clone of [a, b]) {
        const response = await fetch(`${clone.service.url}/health`, {
          headers: { authorization: `Bearer ${clone.service.token}` },
        });
        assert.equal(response.status, 200);
      }
      assert.equal(a.isolation.level, 'full');
    });

    it('reads each clone’s own CPU time from its cgroup (the warm pool’s refill gate)', async () => {
      const driver = createTestDriver();
      const [a0, b0] = await Promise.all([driver.cpuTimeMs(a.name), driver.cpuTimeMs(b.name)]);
      assert.ok(a0 !== null && b0 !== null && a0 > 50, `a Chromium started: ${a0}, ${b0} ms`);
      // A fixed amount of script work in A's renderer (≈ 0.2 s of CPU, however loaded the host).
      const spin =
        'data:text/html,<script>let x = 0; for (let i = 0; i < 2e8; i++) x ^= i; document.title = x;</script>';
      const response = await fetch(`${a.service.url}/actions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.service.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ actions: [{ type: 'navigate', url: spin }] }),
      });
      assert.equal(response.status, 200, await response.text());
      const [a1, b1] = await Promise.all([driver.cpuTimeMs(a.name), driver.cpuTimeMs(b.name)]);
      const [aUsed, bUsed] = [(a1 ?? 0) - a0, (b1 ?? 0) - b0];
      assert.ok(
        aUsed >= 100 && bUsed < aUsed / 3,
        `A's page counts to A alone: ${aUsed} vs ${bUsed} ms`,
      );
      console.error(`CPU time: A +${aUsed.toFixed(0)} ms, B +${bUsed.toFixed(0)} ms`);
      assert.equal(await driver.cpuTimeMs(testNames(998).name), null, 'no such clone');
    });

    it('clone A cannot reach clone B’s jail-service', async () => {
      assert.match(await inClone(a, fetchScript(`${b.service.url}/health`)), /^error/);
    });

    it('a clone cannot reach a host server directly, only its proxy', async () => {
      const proxyHost = new URL(a.egressProxyUrl ?? '').hostname;
      assert.match(await inClone(a, fetchScript(`http://${proxyHost}:${port}/`)), /^error/);
      assert.match(await inClone(a, fetchScript(`http://127.0.0.1:${port}/`)), /^error/);
    });

    it('reaches an allowed host through the proxy; refuses and reports the others', async () => {
      const proxy = a.egressProxyUrl ?? '';
      assert.equal(
        await inClone(a, proxiedGetScript(proxy, `http://127.0.0.1:${port}/`)),
        '200 hello from the test internet',
      );
      assert.equal(await inClone(a, connectScript(proxy, `127.0.0.1:${port}`)), 'connect 200');
      // Allowlisted, but loopback and not the excepted address:port.
      assert.match(await inClone(a, proxiedGetScript(proxy, `http://127.0.0.2:${port}/`)), /^403/);
      assert.match(await inClone(a, proxiedGetScript(proxy, `http://127.0.0.1:80/`)), /^403/);
      assert.equal(await inClone(a, connectScript(proxy, `evil.example:443`)), 'connect 403');
      // Chromium's own background requests (update checks) are refused and reported, too.
      const refusals = manager
        .refusalsOf(a.name, a.leaseId)
        .filter((refusal) => ['127.0.0.1', '127.0.0.2', 'evil.example'].includes(refusal.host));
      assert.deepEqual(
        refusals.map((refusal) => [refusal.taskId, refusal.host, refusal.method, refusal.reason]),
        [
          ['iso-a', '127.0.0.2', 'GET', 'blocked-address'],
          ['iso-a', '127.0.0.1', 'GET', 'not-allowed'],
          ['iso-a', 'evil.example', 'CONNECT', 'not-allowed'],
        ],
      );
    });

    it('clone B, with an empty allowlist, gets nothing through its proxy', async () => {
      const proxy = b.egressProxyUrl ?? '';
      assert.match(await inClone(b, proxiedGetScript(proxy, `http://127.0.0.1:${port}/`)), /^403/);
      const refused = manager.refusalsOf(b.name, b.leaseId);
      assert.ok(
        refused.some((refusal) => refusal.host === '127.0.0.1' && refusal.taskId === 'iso-b'),
      );
    });
  });
}
