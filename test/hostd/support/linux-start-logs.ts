// A failed start of a real Linux clone (root) leaves its output on the host: registered by
// linux-driver.test.ts. The jail-service is made to fail by a bad environment (an unknown log level).
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { JailDriverError } from '../../../hostd/src/drivers/jail-driver.js';
import { createTestDriver, testNames } from './linux-harness.js';

export function registerStartLogTests(): void {
  describe('LinuxDriver failed start (root)', () => {
    const dirs: string[] = [];
    after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

    it('copies the jail-service output to the host log dir and names it in the error', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'clawdie-start-logs-'));
      dirs.push(dir);
      const driver = createTestDriver({
        serviceEnv: { CLAWDIE_LOG_LEVEL: 'not-a-level' },
        taskLogs: { dir, keep: 10, maxBytes: 1_000_000 },
      });
      const name = testNames(931).name;
      await driver.create(931, {
        taskId: 'start-logs',
        allowedDomains: [],
        limits: { memoryMb: 512, pids: 256, cpuPercent: 100 },
        display: false,
      });
      try {
        const error = await driver
          .start(name, { egressProxyUrl: null, timeoutMs: 20_000 })
          .catch((e: unknown) => e);
        assert.ok(error instanceof JailDriverError, String(error));
        assert.equal(error.code, 'CLONE_START_FAILED');
        const path = /the clone's logs: (\S+)\)/.exec(error.message)?.[1] ?? '';
        assert.equal(path.startsWith(`${dir}/${name}.start-failure.`), true, error.message);
      } finally {
        assert.deepEqual((await driver.destroy(name)).leftovers, []);
      }
      const [file, ...more] = await readdir(dir);
      assert.deepEqual(more, []);
      const kept = await readFile(join(dir, file ?? ''), 'utf8');
      assert.match(kept, /==> browsertasktest931: start error <==\n.*the jail-service exited/);
      assert.match(kept, /CLAWDIE_LOG_LEVEL/, 'the service said why');
    });
  });
}
