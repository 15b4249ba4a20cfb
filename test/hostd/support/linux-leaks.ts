// Leak tests against real clones (root): create/destroy cycles, kills in the middle of a start, and
// cycles through hostd's API (egress proxies). `npm test` (linux-driver.test.ts) runs them small —
// 10 cycles, 3 kills, 3 API cycles — and `npm run test:soak` (test/soak/) at full size: 100, 20, 20.
// After each, nothing of any clone may be left: namespaces, links, cgroups, processes, displays,
// proxies, state directories (hostLeftovers).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, it, type TestContext } from 'node:test';
import { LEASE_HEADER, type LeasedClone } from '../../../hostd/src/api/schema.js';
import { createApp } from '../../../hostd/src/app.js';
import { CloneManager } from '../../../hostd/src/clones/clone-manager.js';
import {
  type CloneSpec,
  cloneName,
  type JailDriver,
} from '../../../hostd/src/drivers/jail-driver.js';
import { jailServiceCommand } from '../../../hostd/src/drivers/select-driver.js';
import {
  createTestDriver,
  hostLeftovers,
  listeningTcp,
  settledLeftovers,
  TEST_CGROUP,
  TEST_NAMESPACE,
  testNames,
} from './linux-harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The clone's cgroup directories on this host (v2, or each hierarchy of a hybrid host). */
function cloneCgroupLeaves(name: string): string[] {
  return ['', 'unified', 'memory', 'pids', 'cpu']
    .map((part) => `/sys/fs/cgroup/${part}/${TEST_CGROUP}/${name}`.replace('//', '/'))
    .filter((dir) => existsSync(`${dir}/cgroup.procs`));
}

export function leakSpec(taskId: string, display = false): CloneSpec {
  return {
    taskId,
    allowedDomains: [],
    limits: { memoryMb: 1024, pids: 512, cpuPercent: 100 },
    display,
  };
}

/** Pids of the jail-service's node process (not bwrap, not Chromium) of clone `index`. */
function jailServicePids(index: number): number[] {
  const [program, ...rest] = jailServiceCommand().argv;
  const entry = rest.at(-1);
  const pids: number[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (statSync(`/proc/${pid}`).uid !== testNames(index).uid) continue;
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (argv[0] === program && argv.includes(entry ?? '')) pids.push(Number(pid));
    } catch {
      // Exited meanwhile.
    }
  }
  return pids;
}

/** SIGKILLs clone `index`'s jail-service from outside once it exists; false if `done` came first. */
async function killJailService(index: number, done: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !done()) {
    const pids = jailServicePids(index);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    if (pids.length > 0) return true;
    await sleep(5);
  }
  return false;
}

async function health(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/health`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response.status;
}

/** A failed cycle must not leave its clone to the next test. */
function destroyAfter(t: TestContext, driver: JailDriver, indexes: number[]): void {
  t.after(async () => {
    for (const index of indexes) await driver.destroy(cloneName(index, driver.namespace));
  });
}

/** How many cycles of each leak test: full size in the soak suite, small but real in `npm test`. */
export interface LeakSizes {
  cycles: number;
  kills: number;
  apiCycles: number;
}

export const SMALL_LEAK_SIZES: LeakSizes = { cycles: 10, kills: 3, apiCycles: 3 };
export const SOAK_LEAK_SIZES: LeakSizes = { cycles: 100, kills: 20, apiCycles: 20 };

export function registerLeakTests(sizes: LeakSizes = SMALL_LEAK_SIZES): void {
  describe('LinuxDriver leaks', () => {
    it('reports full isolation on this root host', async () => {
      const isolation = await createTestDriver().probe();
      assert.deepEqual(isolation, { level: 'full', reasons: [] });
    });

    it(`${sizes.cycles} create/destroy cycles (every other with a display, every 10th started) leave nothing`, async (t) => {
      const driver = createTestDriver();
      destroyAfter(t, driver, [910, 911, 912, 913, 914]);
      const started = performance.now();
      for (let cycle = 0; cycle < sizes.cycles; cycle += 1) {
        const index = 910 + (cycle % 5);
        const display = cycle % 2 === 0;
        const clone = await driver.create(index, leakSpec(`leak-${cycle}`, display));
        assert.equal(clone.state, 'created', JSON.stringify(clone));
        if (display) assert.equal(clone.display, `:${testNames(index).display}`);
        if (cycle % 10 === 9) {
          const running = await driver.start(clone.name, { egressProxyUrl: null });
          assert.ok(running.service);
          assert.equal(await health(running.service.url, running.service.token), 200);
        }
        assert.deepEqual((await driver.destroy(clone.name)).leftovers, [], `cycle ${cycle}`);
      }
      assert.deepEqual(await settledLeftovers(), []);
      t.diagnostic(`${((performance.now() - started) / sizes.cycles).toFixed(0)} ms per cycle`);
    });

    it(`${sizes.kills} kills in the middle of start (destroy at 50 ms on, or SIGKILL of the jail-service) leave nothing`, async (t) => {
      const driver = createTestDriver();
      destroyAfter(t, driver, [920, 921, 922, 923, 924]);
      let inFlight = 0;
      for (let cycle = 0; cycle < sizes.kills; cycle += 1) {
        const index = 920 + (cycle % 5);
        const name = cloneName(index, driver.namespace);
        const sigkill = cycle % 4 === 3 || cycle === sizes.kills - 1;
        await driver.create(index, leakSpec(`kill-${cycle}`, cycle % 2 === 0));
        let settled = false;
        const starting = driver.start(name, { egressProxyUrl: null }).then(
          () => null,
          (error: Error) => error,
        );
        void starting.finally(() => {
          settled = true;
        });
        await sleep(50 + cycle * 50);
        let killedInFlight = !settled;
        if (sigkill) killedInFlight = await killJailService(index, () => settled);
        else assert.deepEqual((await driver.destroy(name)).leftovers, [], `cycle ${cycle}`);
        const outcome = await starting;
        if (killedInFlight) {
          inFlight += 1;
          assert.ok(outcome instanceof Error, `cycle ${cycle}: start fails once killed`);
          if (sigkill) assert.match(outcome.message, /exited/);
        }
        assert.deepEqual((await driver.destroy(name)).leftovers, [], `cycle ${cycle}`);
        assert.deepEqual(hostLeftovers({ zombies: false }), [], `cycle ${cycle}`);
      }
      assert.deepEqual(await settledLeftovers(), []);
      t.diagnostic(`${inFlight} of ${sizes.kills} kills landed while start was in flight`);
      assert.ok(
        inFlight >= Math.ceil(sizes.kills / 2),
        `only ${inFlight} of ${sizes.kills} kills landed while start was in flight`,
      );
    });

    it('destroys a clone whose processes fork and write into its profile while it goes', async (t) => {
      // The teardown removes network and files while the kernel still finishes the killed
      // processes: a clone that keeps forking and writing must still leave nothing.
      const driver = createTestDriver();
      const index = 915;
      destroyAfter(t, driver, [index]);
      const clone = await driver.create(index, leakSpec('storm'));
      const { uid, profileDir } = testNames(index);
      const leaves = cloneCgroupLeaves(clone.name);
      assert.ok(leaves.length > 0, 'the clone has cgroup leaves');
      const join = leaves.map((leaf) => `echo $$ > ${leaf}/cgroup.procs`).join(' && ');
      const loop = `i=0; while :; do i=$((i+1)); sleep 30 & echo x > ${profileDir}/storm.$i; done`;
      const setpriv = `setpriv --reuid=${uid} --regid=${uid} --clear-groups`;
      const storm = spawn('/bin/sh', ['-c', `${join} && exec ${setpriv} /bin/sh -c '${loop}'`], {
        stdio: 'ignore',
        env: { PATH: '/usr/bin:/bin' },
      });
      const exited = once(storm, 'exit');
      await sleep(300);
      const written = readdirSync(profileDir).filter((name) => name.startsWith('storm.'));
      assert.ok(written.length > 10, `the storm wrote ${written.length} files`);
      const members = readFileSync(`${leaves[0]}/cgroup.procs`, 'utf8').trim().split('\n');
      assert.ok(members.length > 10, `the storm forked: ${members.length} processes`);
      assert.deepEqual((await driver.destroy(clone.name)).leftovers, []);
      assert.ok((await exited)[1] === 'SIGKILL', 'the storm was killed');
      assert.deepEqual(await settledLeftovers(), []);
    });

    it('a fresh driver (hostd restarted) reconciles a half-made clone from the OS alone', async () => {
      await createTestDriver().create(921, leakSpec('crashed'));
      const result = await createTestDriver().reconcile(() => true);
      assert.deepEqual(result.destroyed, [cloneName(921, TEST_NAMESPACE)]);
      assert.deepEqual(await settledLeftovers(), []);
    });
  });

  describe('hostd clone cycles (API → CloneManager → LinuxDriver)', () => {
    it(`${sizes.apiCycles} create/destroy cycles, some failing mid-start, leave no egress proxy listening`, async () => {
      const token = 'leak-test-token-0123456789';
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const driver = createTestDriver();
      const manager = new CloneManager({
        driver,
        defaultLimits: { memoryMb: 1024, pids: 512, cpuPercent: 100 },
        defaultDisplay: false,
        proxyPort: 3128,
        poolSize: 0,
        startTimeoutMs: 30_000,
      });
      const app = createApp({ token, manager, driver });
      try {
        for (let cycle = 0; cycle < sizes.apiCycles; cycle += 1) {
          const body = JSON.stringify({
            taskId: `api-leak-${cycle}`,
            allowedDomains: ['example.com'],
            display: cycle % 2 === 0,
          });
          let settled = false;
          const creating = Promise.resolve(
            app.request('/clones', { method: 'POST', headers, body }),
          );
          void creating.finally(() => {
            settled = true;
          });
          if (cycle % 4 === 3 || cycle === sizes.apiCycles - 1) {
            // Indexes are handed out round-robin, one per create: this cycle's clone is cycle + 1.
            assert.ok(
              await killJailService(cycle + 1, () => settled),
              `cycle ${cycle}: killed mid-start`,
            );
            assert.equal((await creating).status, 503, `cycle ${cycle}`);
          } else {
            const response = await creating;
            assert.equal(response.status, 201, `cycle ${cycle}`);
            const clone = (await response.json()) as LeasedClone;
            const proxy = new URL(clone.egressProxyUrl ?? '').host;
            assert.ok(listeningTcp().includes(proxy), `cycle ${cycle}: proxy ${proxy} listens`);
            const deleted = await app.request(`/clones/${clone.name}`, {
              method: 'DELETE',
              headers: { ...headers, [LEASE_HEADER]: clone.leaseId },
            });
            assert.deepEqual(((await deleted.json()) as { leftovers: string[] }).leftovers, []);
            assert.ok(!listeningTcp().includes(proxy), `cycle ${cycle}: proxy ${proxy} closed`);
          }
          assert.deepEqual(hostLeftovers({ zombies: false }), [], `cycle ${cycle}`);
        }
      } finally {
        await manager.close();
      }
      assert.deepEqual(await settledLeftovers(), []);
    });
  });
}
