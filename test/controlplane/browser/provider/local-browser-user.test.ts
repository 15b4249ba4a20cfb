import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { prepareLocalBrowserUser } from '../../../../controlplane/src/browser/provider/local-browser-user.js';
import {
  childEnvironment,
  pickVariables,
} from '../../../../controlplane/src/platform/runner/child-environment.js';
import { requires } from '../../../support/capabilities.js';

const noProbe = async () => {
  throw new Error('the probe must not run');
};

describe('prepareLocalBrowserUser', () => {
  it('as root, refuses a uid that belongs to another account and says so', async () => {
    const user = await prepareLocalBrowserUser({
      uid: 1000,
      codePaths: [],
      currentUid: 0,
      passwd: 'root:x:0:0::/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/sh\n',
      probe: noProbe,
    });
    try {
      assert.equal(user.user, null);
      assert.equal(user.sandbox, false);
      assert.match(
        user.summary,
        /as root with --no-sandbox because .*uid 1000 belongs to user alice/,
      );
    } finally {
      await user.remove();
    }
  });

  it('as root with CLAWDIE_LOCAL_BROWSER_UID=0 stays root without the sandbox, naming the setting', async () => {
    const user = await prepareLocalBrowserUser({
      uid: 0,
      codePaths: [],
      currentUid: 0,
      probe: noProbe,
    });
    await user.remove();
    assert.match(
      user.summary,
      /as root with --no-sandbox because it runs as root: CLAWDIE_LOCAL_BROWSER_UID=0/,
    );
  });

  it('without root keeps our uid and reports why the sandbox is off when the probe fails', async () => {
    const user = await prepareLocalBrowserUser({
      uid: 19_999,
      codePaths: [],
      currentUid: 1234,
      probe: async () => ({ ok: false, reason: 'no user namespaces' }),
    });
    try {
      assert.equal(user.user, null);
      assert.equal(statSync(user.home).mode & 0o777, 0o700);
      assert.equal(user.summary, 'as uid 1234 with --no-sandbox because no user namespaces');
    } finally {
      await user.remove();
    }
  });

  it('as root picks the dedicated uid, whose 0700 home it owns', {
    ...requires('root'),
  }, async () => {
    const user = await prepareLocalBrowserUser({
      uid: 19_999,
      codePaths: [],
      passwd: '',
      probe: async () => ({ ok: true }),
    });
    try {
      assert.deepEqual(user.user, { uid: 19_999, gid: 19_999 });
      const stat = statSync(user.home);
      assert.equal(stat.mode & 0o777, 0o700);
      assert.equal(stat.uid, 19_999);
      assert.equal(user.summary, "as uid 19999 with Chromium's sandbox");
    } finally {
      await user.remove();
    }
  });
});

describe('prepareLocalBrowserUser: homes', () => {
  it('removes the home a controlplane killed with SIGKILL left behind', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid;
    const stale = join(tmpdir(), `clawdie-browser-${dead}-abc123`);
    mkdirSync(stale);
    const user = await prepareLocalBrowserUser({
      uid: 0,
      codePaths: [],
      currentUid: 0,
      probe: noProbe,
    });
    await user.remove();
    assert.equal(existsSync(stale), false);
    assert.equal(existsSync(user.home), false);
  });
});

describe('childEnvironment', () => {
  it('holds PATH and exactly the named values, nothing of the parent', () => {
    const parent = { HOME: '/root', LANG: 'C.UTF-8', CLAWDIE_MODEL_API_KEY: 'secret' };
    const env = childEnvironment({
      ...pickVariables(parent, ['LANG', 'TZ']),
      X: 'y',
      Y: undefined,
    });
    assert.deepEqual({ ...env }, { PATH: env.PATH, LANG: 'C.UTF-8', X: 'y' });
    assert.equal(Object.isFrozen(env), true);
  });
});
