// Several real hostd processes (main.ts, Linux driver, root) on one host. A second hostd of the
// same clone namespace refuses to start, naming the first's pid, and the first's live clone
// survives (before the owner lock it reconciled — destroyed — every clone it found); a hostd of
// another namespace starts and leaves the first's clone alone; a lock left by a dead hostd is
// taken over. Each marks the checkout as running until it stops.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { leaseConnections } from '../../controlplane/src/browser/provider/lease-connections.js';
import { type CloneList, LEASE_HEADER, type LeasedClone } from '../../hostd/src/api/schema.js';
import { OWNER_LOCK_DIR } from '../../hostd/src/ownership/namespace-owner.js';
import { RUNNING_DIR } from '../../setup/bootstrap/running-processes.mjs';
import { repositoryRoot } from '../support/repository-root.js';
import { HostdExit, type RunningHostd, startHostdProcess } from './support/hostd-process.js';
import {
  createTestDriver,
  TEST_HOSTD_ENV,
  TEST_NAMESPACE,
  TEST_OTHER_NAMESPACE,
} from './support/linux-harness.js';
import { realLinuxDriverFile } from './support/real-driver-file.js';

const TOKEN = 'owner-test-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const env = (namespace = TEST_NAMESPACE.name) => ({
  ...TEST_HOSTD_ENV,
  CLAWDIE_HOSTD_TOKEN: TOKEN,
  CLAWDIE_HOSTD_NAMESPACE: namespace,
  CLAWDIE_HOSTD_POOL_SIZE: '0',
  CLAWDIE_LOG_LEVEL: 'info',
});

/** A hostd that is stopped (destroying its clones) after the test, whatever happens. */
async function hostd(t: TestContext, namespace?: string): Promise<RunningHostd> {
  const running = await startHostdProcess(env(namespace));
  t.after(() => running.stop());
  return running;
}

async function createClone(running: RunningHostd, taskId: string): Promise<LeasedClone> {
  const response = await fetch(`${running.url}/clones`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ taskId, allowedDomains: ['example.com'] }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  return (await response.json()) as LeasedClone;
}

/**
 * The clone's jail-service answers its token, and its hostd still lists it. Asked on connections
 * of its own, as the controlplane's leases ask: each test's first hostd numbers its clones from 1,
 * so this file's clones share an address and port, and a connection the process's pool kept from
 * the last test's (destroyed) clone fails its next request with ECONNRESET.
 */
async function assertAlive(running: RunningHostd, clone: LeasedClone): Promise<void> {
  const connections = leaseConnections();
  const health = await connections.fetch(`${clone.service.url}/health`, {
    headers: { authorization: `Bearer ${clone.service.token}` },
  });
  await health.body?.cancel();
  await connections.close();
  assert.equal(health.status, 200, `${clone.name}'s jail-service answers`);
  const listed = await fetch(`${running.url}/clones`, { headers });
  const names = ((await listed.json()) as CloneList).clones.map((entry) => entry.name);
  assert.ok(names.includes(clone.name), `${clone.name} is listed: ${names}`);
  const observed = await createTestDriver({ namespace: TEST_NAMESPACE }).inspect(clone.name);
  assert.equal(observed?.state, 'running');
}

async function refusal(namespace?: string): Promise<HostdExit> {
  const outcome = await startHostdProcess(env(namespace)).then(
    async (second) => {
      await second.stop();
      return null;
    },
    (error: unknown) => error,
  );
  assert.ok(outcome instanceof HostdExit, 'the second hostd must not start');
  return outcome;
}

realLinuxDriverFile('several hostd on one host (root, real Linux driver)', () => {
  describe('hostd owner lock and clone namespaces', () => {
    it("refuses a second hostd of the same namespace, naming the first's pid; the first's clone lives", async (t) => {
      const first = await hostd(t);
      const clone = await createClone(first, 'first-task');
      assert.match(clone.name, /^browsertasktest\d{3}$/);
      const started = performance.now();
      const refused = await refusal();
      const refusedMs = performance.now() - started;
      assert.equal(refused.exitCode, 1);
      assert.match(
        refused.stderr,
        new RegExp(
          `^hostd: another hostd \\(pid ${first.pid}, since [^)]+\\) owns the clone namespace "test" on this host \\(${OWNER_LOCK_DIR}/test\\.lock\\).*CLAWDIE_HOSTD_NAMESPACE`,
          'm',
        ),
      );
      assert.doesNotMatch(refused.stderr, /reconciled clones/);
      await assertAlive(first, clone);
      console.error(`second hostd refused in ${refusedMs.toFixed(0)} ms`);
    });

    it("starts a hostd of another namespace whose reconcile leaves the first's clone alone", async (t) => {
      const first = await hostd(t);
      const clone = await createClone(first, 'first-task');
      const other = await hostd(t, TEST_OTHER_NAMESPACE.name);
      const reconciled = other.startLog.find(
        (line) => line.msg === 'reconciled clones left on the host',
      );
      assert.deepEqual(reconciled?.destroyed, [], JSON.stringify(reconciled));
      const theirs = await createClone(other, 'other-task');
      assert.match(theirs.name, /^browsertasktestb\d{3}$/);
      assert.notEqual(theirs.service.url, clone.service.url);
      await assertAlive(first, clone);
      assert.equal(await other.stop(), 0);
      await assertAlive(first, clone);
      const observed = createTestDriver({ namespace: TEST_OTHER_NAMESPACE }).inspect(theirs.name);
      assert.equal(await observed, null, "the other hostd's clone went with it");
      const deleted = await fetch(`${first.url}/clones/${clone.name}`, {
        method: 'DELETE',
        headers: { ...headers, [LEASE_HEADER]: clone.leaseId },
      });
      assert.deepEqual(((await deleted.json()) as { leftovers: string[] }).leftovers, []);
    });

    it('takes over a lock whose hostd is dead, and removes its own and its running marker when it stops', async (t) => {
      const lock = join(OWNER_LOCK_DIR, `${TEST_NAMESPACE.name}.lock`);
      const dead = spawnSync(process.execPath, ['-e', '']).pid;
      mkdirSync(OWNER_LOCK_DIR, { recursive: true });
      const stale = { pid: dead, startTime: '1', namespace: 'test', slot: TEST_NAMESPACE.slot };
      writeFileSync(lock, `${JSON.stringify({ ...stale, since: 'then' })}\n`, { flag: 'wx' });
      const running = await hostd(t);
      const takeover = running.startLog.find((line) => /took over the owner lock/.test(line.msg));
      assert.equal(takeover?.stalePid, dead, JSON.stringify(running.startLog));
      assert.equal(JSON.parse(readFileSync(lock, 'utf8')).pid, running.pid);
      // The bootstrap rebuilds nothing in the checkout while it runs (running-processes.mjs).
      const marker = join(repositoryRoot, RUNNING_DIR, `${running.pid}.json`);
      const written = JSON.parse(readFileSync(marker, 'utf8'));
      assert.deepEqual([written.pid, written.role], [running.pid, 'hostd']);
      assert.equal(await running.stop(), 0);
      assert.equal(existsSync(lock), false, 'a stopped hostd leaves no lock');
      assert.equal(existsSync(marker), false, 'a stopped hostd leaves no running marker');
    });
  });
});
