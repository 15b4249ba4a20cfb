// `clawdie setup --verify-host` over a stub driver (no root): every check passes on an honest
// driver, and a driver that leaves a resource behind, or a clone browser that bypasses the egress
// proxy, makes the report FAIL with a non-zero exit.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import type { CloneManager } from '../../hostd/src/clones/clone-manager.js';
import { CheckList } from '../../setup/src/verify/check-list.js';
import { egressChecks, type LeasedClone } from '../../setup/src/verify/clone-checks.js';
import { startCanary } from '../../setup/src/verify/egress-probe.js';
import { runVerify } from './support/run-verify-cli.js';
import { StubCloneDriver, type StubRigging } from './support/stub-clone-driver.js';

function stubbed(rigging: StubRigging = {}) {
  const driver = new StubCloneDriver(rigging);
  // 1 s per request to the stand-in clone: a refusal that never comes fails in 1 s, not 10.
  const env = { CLAWDIE_HOSTD_START_TIMEOUT_MS: '1000' };
  return { driver, run: () => runVerify({ verifyDriver: () => driver, env }) };
}

const line = (text: string, verdict: 'PASS' | 'FAIL', name: string) =>
  text.split('\n').find((l) => l.startsWith(`${verdict}  ${name}`));

describe('clawdie setup --verify-host (stub driver)', () => {
  it('passes every check and exits 0 when the driver is honest', async () => {
    const { run } = stubbed();
    const { code, text } = await run();
    assert.equal(code, 0, text);
    assert.doesNotMatch(text, /^FAIL/m);
    for (const name of [
      'isolation is full',
      'no clone on the host before',
      'create and start one clone',
      'jail-service refuses a request without its token',
      'jail-service /health with its token',
      'jail-service screenshot',
      'egress proxy in front of the clone',
      'egress refused: CONNECT to a host outside the allowlist',
      'egress refused: GET to a host outside the allowlist',
      "egress refused: the host's loopback, even allowlisted",
      "egress refused: the clone's own browser",
      'destroy the clone',
      'nothing left on the host',
    ]) {
      assert.ok(line(text, 'PASS', name), `no PASS line for ${name}:\n${text}`);
    }
    assert.match(text, /^driver: +fake$/m);
    assert.match(text, /^PASS +create and start one clone +\d+\.\d ms +browsertask001/m);
    assert.match(text, /^result: PASS \(13 checks\)$/m);
  });

  it('fails with a non-zero exit when destroy leaves a resource behind', async () => {
    const { run } = stubbed({ leftover: 'dir:/run/rigged/browsertask001' });
    const { code, text } = await run();
    assert.equal(code, 1, text);
    assert.match(
      line(text, 'FAIL', 'destroy the clone') ?? '',
      /leftovers: dir:\/run\/rigged\/browsertask001/,
    );
    assert.match(line(text, 'FAIL', 'nothing left on the host') ?? '', /browsertask001/);
    assert.ok(line(text, 'PASS', 'jail-service /health with its token'), text);
    assert.match(text, /^result: FAIL \(2 of 13 checks failed\)$/m);
  });

  it("fails when the clone's browser reaches out around the egress proxy", async () => {
    const { run } = stubbed({ bypassProxy: true });
    const { code, text } = await run();
    assert.equal(code, 1, text);
    assert.match(line(text, 'FAIL', "egress refused: the clone's own browser") ?? '', /no refusal/);
  });

  it('refuses to touch clones already on the host', async () => {
    const { driver, run } = stubbed();
    await driver.create(7, {
      taskId: 'someone-else',
      allowedDomains: [],
      limits: { memoryMb: 256, pids: 64, cpuPercent: 50 },
      display: false,
    });
    const { code, text } = await run();
    assert.equal(code, 1);
    assert.match(line(text, 'FAIL', 'no clone on the host before') ?? '', /browsertask007/);
    assert.doesNotMatch(text, /create and start one clone/);
    assert.ok(await driver.inspect('browsertask007'), 'the existing clone was touched');
  });

  it('exits 2 on an invalid hostd configuration', async () => {
    const { code, text } = await runVerify({ env: { CLAWDIE_HOSTD_PROXY_PORT: 'nope' } });
    assert.equal(code, 2);
    assert.match(text, /CLAWDIE_HOSTD_PROXY_PORT/);
  });
});

describe('verify-host egress checks against an open proxy', () => {
  it('fail every egress check and see the loopback listener reached', async () => {
    const open = createServer((_req, res) => res.end('through'));
    open.on('connect', (req, client: Socket) => {
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host ?? '', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    });
    await new Promise<void>((resolve) => open.listen(0, '127.0.0.1', resolve));
    const canary = await startCanary();
    const allowedDomains = ['example.invalid', `127.0.0.1:${canary.port}`];
    const clone = {
      name: 'browsertask001',
      leaseId: 'lease-0123456789abcdef',
      allowedDomains,
      egressProxyUrl: `http://127.0.0.1:${(open.address() as AddressInfo).port}`,
      service: { url: 'http://127.0.0.1:9', token: 'unused-token' },
    } as LeasedClone;
    const noRefusals = { refusalsOf: () => [] } as unknown as CloneManager;
    const checks = new CheckList();
    try {
      await egressChecks(checks, clone, noRefusals, canary, allowedDomains);
      assert.ok(canary.hits() > 0, 'the open proxy did not reach the listener');
    } finally {
      await canary.close();
      open.closeAllConnections();
      open.close();
    }
    const failed = checks.results.filter((check) => !check.ok).map((check) => check.name);
    assert.deepEqual(failed, [
      'egress refused: CONNECT to a host outside the allowlist',
      'egress refused: GET to a host outside the allowlist',
      "egress refused: the host's loopback, even allowlisted",
      "egress refused: the clone's own browser",
    ]);
  });
});
