// Controlplanes of different stores on one hostd: a second data dir (CLAWDIE_DATA_DIR changed while
// the old server runs, `clawdie run` with the env file's CLAWDIE_HOSTD_URL, a restored copy started
// beside its source) must never take the first's live clones for orphans, since its instance
// registry does not list the first. Each store names its own id on its leases and reaps only its
// own. Built by the real composition root, with a real hostd HTTP app on loopback (fake clones).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { Config } from '../../../controlplane/src/config.js';
import { createBackup } from '../../../controlplane/src/platform/backup/create-backup.js';
import { restoreBackup } from '../../../controlplane/src/platform/backup/restore-backup.js';
import { createTestControlplane, testConfig } from '../../support/controlplane.js';
import { startHostd } from './fleet-fixture.js';

const HEARTBEAT_MS = 500;
const TOKEN = 'hostd-token-0123456789abcdef';
const closers: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

/** A data directory of its own (removed at the end) on the hostd at `url`. */
function dataDirOn(url: string): Readonly<Config> {
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-stores-'));
  closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return testConfig({
    CLAWDIE_DATA_DIR: dataDir,
    CLAWDIE_HOSTD_URL: url,
    CLAWDIE_HOSTD_TOKEN: TOKEN,
    CLAWDIE_FLEET_HEARTBEAT_MS: String(HEARTBEAT_MS),
  });
}

async function controlplaneOn(config: Readonly<Config>) {
  const controlplane = await createTestControlplane({ config, browsers: 'config' });
  closers.push(controlplane.close);
  return controlplane;
}

type Controlplane = Awaited<ReturnType<typeof controlplaneOn>>;

const acquire = (controlplane: Controlplane, taskId: string) =>
  controlplane.source.provider.acquire({ taskId, allowedDomains: ['example.com'] });

async function destroyedRows(controlplane: Controlplane, taskId: string) {
  return (await controlplane.audit.list({ taskId, limit: 10 })).filter(
    (row) => row.type === 'clone-destroyed',
  );
}

describe('controlplanes of different stores on one hostd', () => {
  it('a controlplane on another data dir leaves the first’s live clone, and still reaps its own store’s orphan', async () => {
    const hostd = await startHostd(TOKEN);
    closers.push(hostd.close);
    const tasksOnHost = async () => (await hostd.manager.list()).map((each) => each.taskId).sort();
    const first = await controlplaneOn(dataDirOn(hostd.url));
    const live = await acquire(first, 'first-task');

    const other = dataDirOn(hostd.url);
    const second = await controlplaneOn(other);
    // Its start and the rounds after it.
    await delay(HEARTBEAT_MS * 2.5);
    assert.deepEqual(await tasksOnHost(), ['first-task'], 'the first store’s live clone stays');
    assert.deepEqual(await destroyedRows(second, 'first-task'), []);

    // A truly orphaned clone of the second's store: a controlplane on its data dir takes a lease
    // and stops without releasing it (as if killed).
    const dying = await controlplaneOn(other);
    await acquire(dying, 'orphan-task');
    assert.deepEqual(await tasksOnHost(), ['first-task', 'orphan-task']);
    await dying.close();
    // The clone goes from the host a moment before the reaper's audit row is committed.
    for (let waited = 0; waited < 5000; waited += 50) {
      const reaped = !(await tasksOnHost()).includes('orphan-task');
      if (reaped && (await destroyedRows(second, 'orphan-task')).length > 0) break;
      await delay(50);
    }
    assert.deepEqual(await tasksOnHost(), ['first-task'], 'the orphan reaped, the live clone kept');
    const [destroyed] = await destroyedRows(second, 'orphan-task');
    assert.equal(destroyed?.data.reason, 'holder replica gone');

    // The first's lease is still good: it releases its clone itself.
    await live.release();
    assert.deepEqual(await tasksOnHost(), []);
    assert.deepEqual(await destroyedRows(second, 'first-task'), [], 'never audited by the second');
  });

  it('a restored copy started beside its source leaves the source’s live clone', async () => {
    const hostd = await startHostd(TOKEN);
    closers.push(hostd.close);
    const source = await controlplaneOn(dataDirOn(hostd.url));
    const live = await acquire(source, 'source-task');
    const backup = join(mkdtempSync(join(tmpdir(), 'clawdie-stores-backup-')), 'backup');
    closers.push(() => rmSync(join(backup, '..'), { recursive: true, force: true }));
    const quiet = () => undefined;
    await createBackup({ config: source.config, destination: backup, onProgress: quiet });
    const restored = dataDirOn(hostd.url);
    await restoreBackup({ config: restored, source: backup, onProgress: quiet });

    const copy = await controlplaneOn(restored);
    await delay(HEARTBEAT_MS * 2.5);
    assert.deepEqual(
      (await hostd.manager.list()).map((each) => each.taskId),
      ['source-task'],
      'the copy is a store of its own: the source’s lease is not its to judge',
    );
    assert.deepEqual(await destroyedRows(copy, 'source-task'), []);
    await live.release();
  });
});
