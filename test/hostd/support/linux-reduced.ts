// Reduced isolation for real (root), registered by linux-driver.test.ts: the real hostd (main.ts)
// runs in its own mount namespace where a privilege is taken away — nft hidden behind /dev/null,
// the cgroup root a read-only cgroup2 mount, bubblewrap hidden — and must say so: a warning at
// start, `reduced` with a reason on /health and on each clone, clones that still start; or, where
// even reduced isolation is impossible, a clear refusal.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { type Health, LEASE_HEADER, type LeasedClone } from '../../../hostd/src/api/schema.js';
import { HostdExit, type RunningHostd, startHostdProcess } from './hostd-process.js';
import { listeningTcp, settledLeftovers, TEST_HOSTD_ENV } from './linux-harness.js';

const TOKEN = 'reduced-test-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** hostd in its own mount namespace after `setup` (shell commands taking a privilege away). */
function startHostd(setup: string[], env: Record<string, string> = {}): Promise<RunningHostd> {
  return startHostdProcess(
    { CLAWDIE_HOSTD_TOKEN: TOKEN, ...TEST_HOSTD_ENV, CLAWDIE_LOG_LEVEL: 'info', ...env },
    { mountSetup: setup },
  );
}

/** What every reduced host must show, end to end through hostd's API. */
async function assertReducedButWorking(hostd: RunningHostd, reason: RegExp): Promise<void> {
  const warning = hostd.startLog.find((line) => line.level === 40 && /REDUCED/.test(line.msg));
  assert.ok(warning, `hostd warns at start: ${JSON.stringify(hostd.startLog)}`);
  assert.ok(
    warning.reasons?.some((text) => reason.test(text)),
    JSON.stringify(warning),
  );

  const health = (await (await fetch(`${hostd.url}/health`, { headers })).json()) as Health;
  assert.equal(health.isolation.level, 'reduced');
  assert.ok(
    health.isolation.reasons.some((text) => reason.test(text)),
    JSON.stringify(health),
  );

  const created = await fetch(`${hostd.url}/clones`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ taskId: 'reduced', allowedDomains: ['example.com'] }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const clone = (await created.json()) as LeasedClone;
  assert.equal(clone.isolation.level, 'reduced');
  assert.ok(clone.isolation.reasons.some((text) => reason.test(text)));
  const service = await fetch(`${clone.service.url}/health`, {
    headers: { authorization: `Bearer ${clone.service.token}` },
  });
  assert.equal(service.status, 200);
  const proxy = new URL(clone.egressProxyUrl ?? '').host;
  assert.ok(listeningTcp().includes(proxy), `the egress proxy ${proxy} listens`);
  const deleted = await fetch(`${hostd.url}/clones/${clone.name}`, {
    method: 'DELETE',
    headers: { ...headers, [LEASE_HEADER]: clone.leaseId },
  });
  assert.deepEqual(((await deleted.json()) as { leftovers: string[] }).leftovers, []);
  assert.ok(!listeningTcp().includes(proxy), `the egress proxy ${proxy} is closed`);
}

export function registerReducedIsolationTests(): void {
  describe('hostd on a host missing a privilege (reduced isolation, never silent)', () => {
    it('without nft: no network namespace, reported; a clone still starts and answers', async () => {
      const hostd = await startHostd(['mount --bind /dev/null /usr/sbin/nft']);
      try {
        await assertReducedButWorking(hostd, /no network namespace: .*\/usr\/sbin\/nft missing/);
      } finally {
        assert.equal(await hostd.stop(), 0);
      }
      assert.deepEqual(await settledLeftovers(), []);
    });

    it('with a read-only cgroup root: no resource limits, reported; a clone still starts', async () => {
      const cgroupRoot = mkdtempSync(`${tmpdir()}/ro-cgroup-`);
      try {
        const hostd = await startHostd([`mount -t cgroup2 -o ro none ${cgroupRoot}`], {
          CLAWDIE_HOSTD_CGROUP_ROOT: cgroupRoot,
        });
        try {
          await assertReducedButWorking(hostd, /no resource limits: cgroups not writable: EROFS/);
        } finally {
          assert.equal(await hostd.stop(), 0);
        }
      } finally {
        rmSync(cgroupRoot, { recursive: true, force: true });
      }
      assert.deepEqual(await settledLeftovers(), []);
    });

    it('without bubblewrap: refuses to start, naming what is missing and how to install it', async () => {
      const refusal = await startHostd(['mount --bind /dev/null /usr/bin/bwrap']).then(
        async (hostd) => {
          await hostd.stop();
          return null;
        },
        (error: unknown) => error,
      );
      assert.ok(refusal instanceof HostdExit, 'hostd must not start');
      assert.equal(refusal.exitCode, 1);
      assert.match(
        refusal.stderr,
        /^hostd: \/usr\/bin\/bwrap is missing \(apt-get install bubblewrap util-linux\)$/m,
      );
    });
  });
}
