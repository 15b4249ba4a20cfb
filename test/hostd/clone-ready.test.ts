// The clone-to-ready fast paths that need no root: the compiled-jail-service and bundle checks, the warm
// pool's CPU priority and first-screenshot priming, and the batched network commands.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import type { CommandRunner, RunOptions } from '@clawdie/kit/runner';
import { CloneManager } from '../../hostd/src/clones/clone-manager.js';
import type { CpuPriority } from '../../hostd/src/drivers/jail-driver.js';
import { createNetwork } from '../../hostd/src/drivers/linux/network.js';
import { staleBuild } from '../../hostd/src/drivers/select-driver.js';
import { currentBundle, SERVICE_BUNDLE } from '../../jail-service/src/service-bundle.js';
import { FakeDriver } from './support/fake-jail-driver.js';

const dirs: string[] = [];
const managers: CloneManager[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  for (const manager of managers.splice(0)) await manager.close();
});

function touch(path: string, seconds: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '');
  utimesSync(path, seconds, seconds);
}

describe('staleBuild (run the compiled jail-service only when it is current)', () => {
  function workspace(): { src: string; dist: string } {
    const root = mkdtempSync(join(tmpdir(), 'clawdie-build-'));
    dirs.push(root);
    return { src: join(root, 'src'), dist: join(root, 'dist') };
  }

  it('is null when every source has an output at least as new', () => {
    const { src, dist } = workspace();
    touch(join(src, 'main.ts'), 1000);
    touch(join(src, 'browser', 'launch.ts'), 1000);
    touch(join(src, 'types.d.ts'), 5000);
    touch(join(dist, 'main.js'), 2000);
    touch(join(dist, 'browser', 'launch.js'), 1000);
    assert.equal(staleBuild(src, dist), null);
  });

  it('names the missing build, a missing output and an output older than its source', () => {
    const { src, dist } = workspace();
    touch(join(src, 'main.ts'), 1000);
    assert.match(staleBuild(src, dist) ?? '', /main\.js does not exist/);
    touch(join(dist, 'main.js'), 2000);
    touch(join(src, 'browser', 'launch.ts'), 1000);
    assert.match(staleBuild(src, dist) ?? '', /launch\.js is missing or older than .*launch\.ts/);
    touch(join(dist, 'browser', 'launch.js'), 500);
    assert.match(staleBuild(src, dist) ?? '', /launch\.js is missing or older/);
  });
});

describe('currentBundle (run the one-file jail-service only while it is current)', () => {
  it('is the bundle while no compiled file of the service or the kit is newer', () => {
    const root = mkdtempSync(join(tmpdir(), 'clawdie-bundle-'));
    dirs.push(root);
    const [service, kit] = [join(root, 'jail-service'), join(root, 'kit')];
    const dists = [join(service, 'dist'), join(kit, 'dist')];
    assert.equal(currentBundle(service, dists), null, 'no bundle built');
    touch(join(service, 'dist', 'main.js'), 1000);
    touch(join(kit, 'dist', 'jail-api', 'index.js'), 1000);
    touch(join(service, SERVICE_BUNDLE), 2000);
    // The bundle's own directory does not count against it.
    touch(join(service, 'dist', 'bundle', 'chunk.js'), 3000);
    assert.equal(currentBundle(service, dists), join(service, SERVICE_BUNDLE));
    touch(join(kit, 'dist', 'images', 'select-codec.js'), 2500);
    assert.equal(currentBundle(service, dists), null, 'the kit was rebuilt after the bundle');
    touch(join(service, SERVICE_BUNDLE), 3000);
    touch(join(service, 'dist', 'browser', 'launch.js'), 3500);
    assert.equal(currentBundle(service, dists), null, 'the service was rebuilt after the bundle');
  });
});

class PriorityDriver extends FakeDriver {
  readonly priorities: string[] = [];
  async setCpuPriority(name: string, priority: CpuPriority): Promise<void> {
    this.priorities.push(`${name}:${priority}`);
  }
}

/** A fake host whose clones use CPU while named in `busy` (100 ms of it per read). */
class BusyDriver extends FakeDriver {
  readonly busy = new Set<string>();
  #used = 0;
  async cpuTimeMs(name: string): Promise<number | null> {
    if (!this.clones.has(name)) return null;
    if (this.busy.has(name)) this.#used += 100;
    return this.#used;
  }
}

/** A manager with a warm pool of one over `driver`, closed after the test. */
function poolOfOne(
  driver: FakeDriver,
  options: Partial<ConstructorParameters<typeof CloneManager>[0]> = {},
): CloneManager {
  const manager = new CloneManager({
    driver,
    defaultLimits: { memoryMb: 1024, pids: 512, cpuPercent: 100 },
    defaultDisplay: false,
    proxyPort: 0,
    poolSize: 1,
    startTimeoutMs: 5000,
    ...options,
  });
  managers.push(manager);
  return manager;
}

describe('warm pool', () => {
  it('refills once the clone just handed out goes quiet, not while it is busy', async () => {
    const driver = new BusyDriver();
    const manager = poolOfOne(driver, { refill: { maxWaitMs: 60_000, sampleMs: 20 } });
    manager.fillPool();
    assert.equal(await manager.poolReady(5000), true);
    // The task's first navigation keeps its browser busy from the hand-out on.
    driver.busy.add('browsertask001');
    const clone = await manager.create({ taskId: 'warm' });
    assert.equal(clone.fromPool, true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(driver.createTimes.length, 1, 'no clone is made while the task is busy');
    assert.equal(manager.poolStatus().filling, 1, 'the refill waits, counted as filling');
    driver.busy.delete(clone.name);
    assert.equal(await manager.poolReady(5000), true);
    assert.equal(driver.createTimes.length, 2);
  });

  it('makes warm clones at background CPU priority, primes them, and restores on hand-out', async () => {
    const driver = new PriorityDriver();
    const primed: string[] = [];
    const manager = poolOfOne(driver, {
      primeWarmClone: async (service) => {
        primed.push(service.url);
      },
    });
    manager.fillPool();
    assert.equal(await manager.poolReady(5000), true);
    assert.deepEqual(driver.priorities, ['browsertask001:background']);
    assert.equal(primed.length, 1);
    const clone = await manager.create({ taskId: 'warm' });
    assert.equal(clone.fromPool, true);
    assert.equal(driver.priorities[1], 'browsertask001:normal');
    const cold = await manager.create({ taskId: 'cold', limits: { memoryMb: 4096 } });
    assert.equal(cold.fromPool, false);
    assert.equal(await manager.poolReady(5000), true);
    assert.equal(primed.length, 2);
    assert.ok(!driver.priorities.includes(`${cold.name}:background`));
  });

  it('discards a warm clone whose priming fails', async () => {
    const driver = new FakeDriver();
    const errors: string[] = [];
    const manager = poolOfOne(driver, {
      primeWarmClone: async () => {
        throw new Error('no screenshot');
      },
      onError: (message) => errors.push(message),
    });
    manager.fillPool();
    assert.equal(await manager.poolReady(200), false);
    assert.ok(errors.includes('warm clone failed'));
    assert.equal(driver.clones.size, 0);
  });
});

describe('createNetwork', () => {
  it('sets up a clone network in three commands, the last two concurrently', async () => {
    const calls: { argv: readonly string[]; stdin: string }[] = [];
    let running = 0;
    let overlap = 0;
    const runner: CommandRunner = {
      async run(argv: readonly string[], options: RunOptions) {
        calls.push({ argv, stdin: options.stdin ?? '' });
        running += 1;
        overlap = Math.max(overlap, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return { exitCode: 0, stdout: '', stderr: '', durationMs: 5 };
      },
    };
    const names = {
      index: 7,
      name: 'browsertask007',
      netns: 'bt007',
      hostVeth: 'bt007h',
      cloneVeth: 'bt007j',
      hostAddress: '10.78.0.29',
      cloneAddress: '10.78.0.30',
      uid: 20_007,
      display: 207,
      loopbackPort: 30_007,
      stateDir: '/run/x/browsertask007',
      profileDir: '/run/x/browsertask007/profile',
    };
    await createNetwork(runner, names, { servicePort: 9223, proxyPort: 3128 });
    assert.equal(calls.length, 3);
    assert.deepEqual(calls[0]?.argv, ['/usr/sbin/ip', '-batch', '-']);
    assert.match(
      calls[0]?.stdin ?? '',
      /^netns add bt007\nlink add bt007h type veth peer name bt007j netns bt007\n/,
    );
    assert.deepEqual(calls[1]?.argv, ['/usr/sbin/ip', '-n', 'bt007', '-batch', '-']);
    assert.deepEqual(calls[2]?.argv.slice(-3), ['/usr/sbin/nft', '-f', '-']);
    assert.match(calls[2]?.stdin ?? '', /tcp dport 3128 accept/);
    assert.equal(overlap, 2);
  });
});
