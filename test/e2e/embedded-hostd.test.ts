// `npm start` as root runs hostd as its own child (controlplane/src/browser/provider/embedded-hostd.ts). Real
// hostd processes with the real Linux driver, in the test namespace of clone resources, holding the
// host lock: a normal stop destroys the clones; a controlplane killed with SIGKILL leaves nothing
// either, because hostd sees its stdin close and cleans up.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import {
  embeddedHostdUnavailable,
  startEmbeddedHostd,
} from '../../controlplane/src/browser/provider/embedded-hostd.js';
import { HostdClient } from '../../hostd/src/api/client.js';
import { jailServiceCommand } from '../../hostd/src/drivers/select-driver.js';
import { acquireHostLock } from '../hostd/support/host-lock.js';
import {
  ensureCodeReachable,
  hostLeftovers,
  linuxDriverMissing,
  TEST_HOSTD_ENV,
} from '../hostd/support/linux-harness.js';
import { skipFile } from '../support/capabilities.js';
import { supportScriptArgv } from '../support/current-build.js';
import { silentLogger } from '../support/silent-logger.js';
import { testLauncher } from '../support/test-launcher.js';

/** hostd's clone resources in the test namespace the leak checks look at. */
const testHostdEnv = {
  ...process.env,
  ...TEST_HOSTD_ENV,
  CLAWDIE_HOSTD_POOL_SIZE: '0',
  CLAWDIE_LOG_LEVEL: 'warn',
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

describe('embedded hostd: availability', () => {
  it('names why it cannot run: another OS, not root', () => {
    assert.match(embeddedHostdUnavailable('darwin', 0) ?? '', /no driver for darwin/);
    assert.match(embeddedHostdUnavailable('linux', 1000) ?? '', /not running as root/);
    assert.match(embeddedHostdUnavailable('freebsd', 1000) ?? '', /not running as root .*jail/);
  });

  it('runs on FreeBSD as root when the base-system tools are there, and names any missing', () => {
    const freebsdTools = [
      '/sbin/zfs',
      '/usr/sbin/jail',
      '/usr/sbin/jls',
      '/sbin/pfctl',
      '/usr/bin/rctl',
    ];
    assert.equal(
      embeddedHostdUnavailable('freebsd', 0, (path) => freebsdTools.includes(path)),
      null,
    );
    assert.match(
      embeddedHostdUnavailable('freebsd', 0, (path) => path !== '/usr/bin/rctl') ?? '',
      /^\/usr\/bin\/rctl missing/,
    );
    // The Linux tools are not what FreeBSD needs, nor the other way round.
    assert.match(
      embeddedHostdUnavailable('linux', 0, (path) => freebsdTools.includes(path)) ?? '',
      /bwrap/,
    );
  });
});

const missing = linuxDriverMissing();
if (!skipFile('embedded hostd (root, real Linux driver)', missing)) {
  describe('embedded hostd (root, real Linux driver)', () => {
    let release: () => void;
    before(async () => {
      release = await acquireHostLock();
      ensureCodeReachable(jailServiceCommand().binds.map((bind) => bind.source));
    });
    after(() => release?.());

    it('starts on loopback with a one-off token, makes clones, and destroys them when stopped', async () => {
      assert.equal(embeddedHostdUnavailable(), null);
      const hostd = await startEmbeddedHostd({
        launcher: testLauncher,
        env: testHostdEnv,
        logger: silentLogger,
      });
      try {
        assert.match(hostd.url, /^http:\/\/127\.0\.0\.1:\d+$/);
        const anonymous = await fetch(`${hostd.url}/health`);
        assert.equal(anonymous.status, 401);
        const client = new HostdClient({ baseUrl: hostd.url, token: hostd.token });
        const health = await client.health();
        assert.deepEqual(health.isolation, { level: 'full', reasons: [] });
        const clone = await client.createClone({ taskId: 'embedded', allowedDomains: [] });
        assert.equal((await client.listClones()).length, 1);
        assert.match(clone.name, /^browsertasktest\d{3}$/);
      } finally {
        await hostd.stop();
      }
      assert.equal(alive(hostd.process.pid), false);
      assert.ok(
        await eventually(() => hostLeftovers().length === 0, 5000),
        hostLeftovers().join('\n'),
      );
    });

    it('cleans up by itself when the controlplane that started it is killed with SIGKILL', async () => {
      const parent = spawn(
        process.execPath,
        [...supportScriptArgv('test/e2e/support/embedded-hostd-parent.ts')],
        { env: testHostdEnv, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        parent.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('\n')) resolve(out.trim());
        });
        parent.once('exit', (code) => reject(new Error(`parent exited early (${code})`)));
      });
      const made = JSON.parse(line) as { hostdPid: number; clone: string };
      assert.ok(alive(made.hostdPid));
      assert.ok(hostLeftovers().length > 0, 'the clone exists before the crash');
      parent.kill('SIGKILL');
      assert.ok(await eventually(() => !alive(made.hostdPid), 30_000), 'hostd exited');
      assert.ok(
        await eventually(() => hostLeftovers().length === 0, 5000),
        hostLeftovers().join('\n'),
      );
    });
  });
}
