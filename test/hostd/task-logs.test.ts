// Task logs on the host: archived console logs and failed-start logs are bounded by count and
// bytes (oldest removed first) — on real files — and a failed FreeBSD start leaves the jail's own
// logs on the host before the clone is destroyed (the fake FreeBSD host).
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cloneNamespace, DEFAULT_NAMESPACE } from '../../hostd/src/drivers/clone-namespace.js';
import { FreeBsdDriver } from '../../hostd/src/drivers/freebsd/freebsd-driver.js';
import { createNodeHostFiles } from '../../hostd/src/drivers/freebsd/host-files.js';
import { defaultFreeBsdLayout, taskNames } from '../../hostd/src/drivers/freebsd/names.js';
import { JailDriverError } from '../../hostd/src/drivers/jail-driver.js';
import { logStamp, pruneTaskLogs, tail } from '../../hostd/src/drivers/task-logs.js';
import { FakeFreeBSD, spec } from './freebsd/driver-fixture.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 27, 3, 0, 0);

describe('task log retention (real files)', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  async function logDir(files: Record<string, number>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'clawdie-task-logs-'));
    dirs.push(dir);
    for (const [name, bytes] of Object.entries(files)) {
      await writeFile(join(dir, name), 'x'.repeat(bytes));
    }
    return dir;
  }

  it('keeps the newest `keep` archives, oldest removed first; live logs and others untouched', async () => {
    const dir = await logDir({
      [`browsertask003.console.log.${logStamp(T0 + 3 * HOUR)}`]: 10,
      [`browsertask001.console.log.${logStamp(T0)}`]: 10,
      [`browsertask002.start-failure.${logStamp(T0 + HOUR)}.log`]: 10,
      [`browsertask001.console.log.${logStamp(T0 + 2 * HOUR)}`]: 10,
      'browsertask001.console.log': 10,
      [`browsertasktest001.console.log.${logStamp(T0 - HOUR)}`]: 10,
      'notes.txt': 10,
    });
    const removed = await pruneTaskLogs(
      createNodeHostFiles(),
      { dir, keep: 2, maxBytes: 1_000_000 },
      DEFAULT_NAMESPACE,
    );
    assert.deepEqual(
      removed.map((path) => path.slice(dir.length + 1)),
      [
        `browsertask001.console.log.${logStamp(T0)}`,
        `browsertask002.start-failure.${logStamp(T0 + HOUR)}.log`,
      ],
    );
    assert.deepEqual((await readdir(dir)).sort(), [
      'browsertask001.console.log',
      `browsertask001.console.log.${logStamp(T0 + 2 * HOUR)}`,
      `browsertask003.console.log.${logStamp(T0 + 3 * HOUR)}`,
      `browsertasktest001.console.log.${logStamp(T0 - HOUR)}`,
      'notes.txt',
    ]);
  });

  it('removes the oldest until the archives fit in `maxBytes`', async () => {
    const dir = await logDir({
      [`browsertasktest001.console.log.${logStamp(T0)}`]: 400,
      [`browsertasktest002.console.log.${logStamp(T0 + HOUR)}`]: 300,
      [`browsertasktest003.console.log.${logStamp(T0 + 2 * HOUR)}`]: 200,
    });
    const files = createNodeHostFiles();
    const retention = { dir, keep: 100, maxBytes: 500 };
    const removed = await pruneTaskLogs(files, retention, cloneNamespace('test'));
    assert.deepEqual(
      removed.map((path) => path.slice(dir.length + 1)),
      [`browsertasktest001.console.log.${logStamp(T0)}`],
      '900 B → 500 B: only the oldest goes',
    );
    assert.equal((await readdir(dir)).length, 2);
    assert.deepEqual(await pruneTaskLogs(files, retention, cloneNamespace('test')), []);
  });

  it('tail keeps the end of a long log, whole lines, and says what it cut', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    const kept = tail(text, 100);
    assert.ok(Buffer.byteLength(kept) < 160);
    assert.match(kept, /^\[… \d+ earlier bytes cut\]\nline 9\d\d\n/);
    assert.ok(kept.endsWith('line 999'));
    assert.equal(tail('short\n', 100), 'short\n');
  });
});

describe('FreeBSD task logs (fake FreeBSD host)', () => {
  const NAME = 'browsertask007';

  function driver(fake: FakeFreeBSD, keep = 500) {
    return new FreeBsdDriver({
      layout: defaultFreeBsdLayout,
      runner: fake.runner,
      files: fake.files,
      healthCheck: fake.healthCheck,
      now: fake.now,
      sleep: fake.sleep,
      generateToken: () => 'token-1',
      taskLogs: { keep, maxBytes: 1_000_000 },
    });
  }

  it('a failed start copies the console, jail-service and Xvfb logs to the host before destroy', async () => {
    const fake = new FakeFreeBSD();
    fake.state.health = 'never';
    const subject = driver(fake);
    await subject.create(7, spec());
    const root = taskNames(7).root;
    const serviceLog = 'jail-service: CLAWDIE_JAIL_PORT: Expected number\n';
    await fake.files.write(`${root}/var/log/jail-service.log`, serviceLog, { mode: 0o644 });
    const error = await subject
      .start(NAME, { egressProxyUrl: null, timeoutMs: 500 })
      .catch((e: unknown) => e);
    assert.ok(error instanceof JailDriverError);
    assert.equal(error.code, 'CLONE_START_FAILED');
    const path = /the jail's logs: (\S+)\)/.exec(error.message)?.[1] ?? '';
    assert.match(path, /^\/var\/log\/hostd\/browsertask007\.start-failure\.[\dT.Z-]+\.log$/);
    const { leftovers } = await subject.destroy(NAME);
    assert.deepEqual(leftovers, []);
    const kept = (await fake.files.read(path)) ?? '';
    assert.match(
      kept,
      /==> \/var\/log\/hostd\/browsertask007\.console\.log <==\nbrowsertask007 console\n/,
    );
    assert.ok(kept.includes(`==> browsertask007:/var/log/jail-service.log <==\n${serviceLog}`));
    assert.ok(kept.includes('==> browsertask007:/var/log/xvfb.log <==\n(none)\n'));
  });

  it('archived console logs stay within `keep` across destroys', async () => {
    const fake = new FakeFreeBSD();
    const subject = driver(fake, 2);
    for (let round = 0; round < 4; round += 1) {
      await subject.create(7, spec());
      await subject.start(NAME, { egressProxyUrl: null });
      await fake.sleep(1000);
      await subject.destroy(NAME);
    }
    const archived = (await fake.files.list('/var/log/hostd')).filter((n) =>
      n.startsWith(`${NAME}.console.log.`),
    );
    assert.equal(archived.length, 2, archived.join(', '));
  });
});
