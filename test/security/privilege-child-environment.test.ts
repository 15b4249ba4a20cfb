// Issue 12, "What must hold" 5: children get an explicit environment, never the controlplane's.
// Secrets and a random canary sit in the parent's environment; the real children — ffmpeg for
// recordings, Xvfb, an embedded hostd and every process of its warm clone (jail-service,
// Chromium) — are read through /proc/<pid>/environ and hold none of them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type EmbeddedHostd,
  startEmbeddedHostd,
} from '../../controlplane/src/browser/provider/embedded-hostd.js';
import { spawnFfmpegEncoder } from '../../controlplane/src/browser/recording/runner/ffmpeg-process.js';
import { HostdClient } from '../../hostd/src/api/client.js';
import { jailServiceCommand } from '../../hostd/src/drivers/select-driver.js';
import { acquireHostLock } from '../hostd/support/host-lock.js';
import { ensureCodeReachable, TEST_HOSTD_ENV } from '../hostd/support/linux-harness.js';
import { requires } from '../support/capabilities.js';
import { chromiumDescendants, commandLine, listProcesses } from '../support/chromium-processes.js';
import {
  processTree,
  secretsHeld,
  userNamespaceOf,
  variablesWithPrefix,
} from '../support/process-environment.js';
import { silentLogger } from '../support/silent-logger.js';
import { testLauncher } from '../support/test-launcher.js';
import { startXvfb } from '../support/xvfb-process.js';

const secrets: Record<string, string> = {
  CLAWDIE_MODEL_API_KEY: `sk-model-${randomBytes(12).toString('hex')}`,
  CLAWDIE_ADMIN_TOKEN: `admin-${randomBytes(12).toString('hex')}`,
  CLAWDIE_TELEGRAM_BOT_TOKEN: `123456:${randomBytes(12).toString('hex')}`,
  [`CLAWDIE_CANARY_${randomBytes(4).toString('hex').toUpperCase()}`]:
    randomBytes(16).toString('hex'),
};

describe('children of the controlplane started from an environment holding secrets', () => {
  // ffmpeg and Xvfb are started from this process's own environment: put the secrets there.
  before(() => Object.assign(process.env, secrets));
  after(() => {
    for (const name of Object.keys(secrets)) delete process.env[name];
  });

  it('the recording encoder (ffmpeg) holds none of them', {
    ...requires('ffmpeg'),
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clawdie-ffmpeg-env-'));
    const encoder = await spawnFfmpegEncoder({
      children: testLauncher.children,
      ffmpegPath: '/usr/bin/ffmpeg',
      fps: 5,
      outputPath: join(dir, 'out.mp4'),
    });
    try {
      const tree = processTree(encoder.pid);
      assert.ok(tree.length > 0, 'ffmpeg is not running');
      assert.deepEqual(secretsHeld(tree, secrets), []);
    } finally {
      await encoder.finish(2000);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Xvfb holds none of them', {
    ...requires('x11'),
  }, async () => {
    const display = await startXvfb({ width: 320, height: 240 });
    try {
      assert.deepEqual(secretsHeld(processTree(display.pid), secrets), []);
    } finally {
      await display.stop();
    }
  });
});

describe('an embedded hostd and its warm clone', requires('linux-clones', 'chromium'), () => {
  let release: () => void;
  let hostd: EmbeddedHostd | undefined;
  before(async () => {
    release = await acquireHostLock();
    ensureCodeReachable(jailServiceCommand().binds.map((bind) => bind.source));
    hostd = await startEmbeddedHostd({
      launcher: testLauncher,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...TEST_HOSTD_ENV,
        CLAWDIE_HOSTD_POOL_SIZE: '1',
        CLAWDIE_LOG_LEVEL: 'warn',
        ...secrets,
      },
      logger: silentLogger,
    });
    const client = new HostdClient({ baseUrl: hostd.url, token: hostd.token });
    const deadline = Date.now() + 90_000;
    while ((await client.health()).pool.ready < 1 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await client.health()).pool.ready, 1, 'the warm clone did not become ready');
  });
  after(async () => {
    await hostd?.stop();
    release?.();
  });

  it('hostd, its children, the clone jail-service and its Chromium hold none of them', () => {
    const pid = hostd?.process.pid ?? -1;
    assert.ok(chromiumDescendants(pid).length > 0, "no Chromium below hostd: the clone's browser");
    assert.deepEqual(secretsHeld(processTree(pid), secrets), []);
    // The clone's Chromium holds no CLAWDIE_* variable: not its jail-service's bearer token.
    assert.deepEqual(variablesWithPrefix(chromiumDescendants(pid), 'CLAWDIE_'), []);
  });

  it("the clone's Chromium keeps its own sandbox (renderers in a user namespace of their own)", (t) => {
    const chromium = chromiumDescendants(hostd?.process.pid ?? -1);
    const browser = chromium.find((info) => !/chrom/i.test(commandOf(info.ppid)));
    assert.ok(browser, 'no Chromium browser process in the clone');
    if (commandLine(browser.pid).includes('--no-sandbox')) {
      const reason =
        'Chromium runs with --no-sandbox in the clone (the host refuses a nested user namespace)';
      if (process.env.CI) assert.fail(reason);
      t.skip(reason);
      return;
    }
    const own = userNamespaceOf(browser.pid);
    const sandboxed = chromium.filter((info) => userNamespaceOf(info.pid) !== own);
    assert.ok(sandboxed.length > 0, 'no Chromium process in a user namespace of its own');
  });
});

function commandOf(pid: number): string {
  return listProcesses().find((info) => info.pid === pid)?.command ?? '';
}
