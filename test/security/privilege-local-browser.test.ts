// Issue 12, found 8 and "What must hold" 5: the local browser (no hostd) held the controlplane's
// secrets and ran as root with --no-sandbox. A real local jail-service, started the way `npm start`
// starts it, with secrets and a random canary in the controlplane's environment: neither it nor
// any of its Chromium processes holds one; as root they run as an unprivileged uid, and Chromium
// keeps its own sandbox wherever the kernel lets that uid make user namespaces.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  type LocalJailService,
  startLocalJailService,
} from '../../controlplane/src/browser/provider/local-jail-service.js';
import { probeUserNamespaces } from '../../controlplane/src/platform/runner/user-namespace-probe.js';
import { jailServiceCommand } from '../../hostd/src/drivers/select-driver.js';
import { ensureCodeReachable } from '../hostd/support/linux-harness.js';
import { jailChromiumEnv, requires } from '../support/capabilities.js';
import { chromiumDescendants } from '../support/chromium-processes.js';
import {
  processTree,
  secretsHeld,
  uidOf,
  userNamespaceOf,
  variablesWithPrefix,
} from '../support/process-environment.js';
import { silentLogger } from '../support/silent-logger.js';
import { testLauncher } from '../support/test-launcher.js';

const secrets = {
  CLAWDIE_MODEL_API_KEY: `sk-model-${randomBytes(12).toString('hex')}`,
  CLAWDIE_ADMIN_TOKEN: `admin-${randomBytes(12).toString('hex')}`,
  CLAWDIE_TELEGRAM_BOT_TOKEN: `123456:${randomBytes(12).toString('hex')}`,
  [`CLAWDIE_CANARY_${randomBytes(4).toString('hex').toUpperCase()}`]:
    randomBytes(16).toString('hex'),
};
const isRoot = process.getuid?.() === 0;

describe('the local browser (no hostd)', requires('chromium'), () => {
  let service: LocalJailService;
  before(async () => {
    // As for clones: a checkout in a 0700 directory would keep the browser's uid from its code.
    if (isRoot) ensureCodeReachable(jailServiceCommand().binds.map((bind) => bind.source));
    service = await startLocalJailService({
      egressProxyUrl: null,
      launcher: testLauncher,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...jailChromiumEnv,
        ...secrets,
      },
      logger: silentLogger,
    });
  });
  after(() => service?.stop());

  it('neither the jail-service nor any Chromium process holds the controlplane secrets', () => {
    const tree = processTree(service.process.pid);
    assert.ok(chromiumDescendants(service.process.pid).length > 0, 'no Chromium found');
    assert.deepEqual(secretsHeld(tree, secrets), []);
  });

  it("Chromium holds no CLAWDIE_* variable, not even the jail-service's bearer token", () => {
    const chromium = chromiumDescendants(service.process.pid);
    assert.deepEqual(secretsHeld(chromium, { CLAWDIE_JAIL_TOKEN: service.token }), []);
    assert.deepEqual(variablesWithPrefix(chromium, 'CLAWDIE_'), []);
  });

  it('as root, the jail-service and every Chromium process run as an unprivileged uid', {
    ...requires('root'),
  }, () => {
    const tree = processTree(service.process.pid);
    const root = tree.filter((info) => uidOf(info.pid) === 0);
    assert.deepEqual(
      root.map((info) => `${info.pid} ${info.command}`),
      [],
      'processes still running as root',
    );
  });

  it('Chromium keeps its own sandbox (renderers in their own user namespace) where the kernel allows it', async (t) => {
    const probe = await probeUserNamespaces(isRoot ? { uid: 19_999, gid: 19_999 } : null);
    if (!probe.ok) {
      assert.match(service.summary, /--no-sandbox because/);
      if (process.env.CI) assert.fail(probe.reason);
      t.skip(probe.reason);
      return;
    }
    assert.match(service.summary, /with Chromium's sandbox/);
    const own = userNamespaceOf(service.process.pid);
    const chromium = chromiumDescendants(service.process.pid);
    const sandboxed = chromium.filter((info) => userNamespaceOf(info.pid) !== own);
    assert.ok(sandboxed.length > 0, `no Chromium process in a user namespace of its own`);
  });
});
