import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../hostd/src/config.js';

const token = { CLAWDIE_HOSTD_TOKEN: 'a-token-of-sixteen-chars' };

describe('hostd config: CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL', () => {
  it('is empty by default: no clone reaches any host-internal address', () => {
    assert.deepEqual(loadConfig(token).egressAllowInternal, []);
  });

  it('takes exact address:port entries only', () => {
    const config = loadConfig({
      ...token,
      CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL: '127.0.0.1:41234, [::1]:8080',
    });
    assert.deepEqual(config.egressAllowInternal, ['127.0.0.1:41234', '[::1]:8080']);
    for (const bad of ['127.0.0.1', 'localhost:80', '127.0.0.1:0', '10.0.0.0/8:80', '*:80'])
      assert.throws(
        () => loadConfig({ ...token, CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL: bad }),
        /CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL: must be comma-separated exact address:port/,
        bad,
      );
  });
});

describe('hostd config: driver selection', () => {
  it('follows the platform: FreeBSD → freebsd, Linux → linux', () => {
    assert.equal(loadConfig(token, undefined, 'freebsd').driver, 'freebsd');
    assert.equal(loadConfig(token, undefined, 'linux').driver, 'linux');
  });

  it('CLAWDIE_HOSTD_DRIVER overrides the platform', () => {
    assert.equal(
      loadConfig({ ...token, CLAWDIE_HOSTD_DRIVER: 'freebsd' }, undefined, 'linux').driver,
      'freebsd',
    );
    assert.equal(
      loadConfig({ ...token, CLAWDIE_HOSTD_DRIVER: 'linux' }, undefined, 'freebsd').driver,
      'linux',
    );
  });

  it('refuses fake and unknown drivers, naming the variable', () => {
    for (const bad of ['fake', 'bastille', 'FreeBSD'])
      assert.throws(
        () => loadConfig({ ...token, CLAWDIE_HOSTD_DRIVER: bad }, undefined, 'linux'),
        /CLAWDIE_HOSTD_DRIVER: must be linux or freebsd \(production hostd has no fake driver/,
        bad,
      );
  });

  it('refuses a platform without a driver unless one is named', () => {
    assert.throws(
      () => loadConfig(token, undefined, 'darwin'),
      /hostd has no driver for darwin: .*CLAWDIE_HOSTD_DRIVER=freebsd\|linux/,
    );
    assert.equal(
      loadConfig({ ...token, CLAWDIE_HOSTD_DRIVER: 'linux' }, undefined, 'darwin').driver,
      'linux',
    );
  });
});

describe('hostd config: the FreeBSD host layout', () => {
  it('defaults to what `clawdie setup` prepares', () => {
    assert.deepEqual(loadConfig(token, undefined, 'freebsd').freebsd, {
      tasksDataset: 'zroot/hostd/tasks',
      jailsRoot: '/var/hostd/jails',
      templateSnapshot: 'zroot/bastille/jails/browser/root@hostd-g0001',
      pfAnchor: 'hostd',
      interfaceGroup: 'hostdtask',
      quota: '2G',
    });
  });

  it('takes every value from its variable', () => {
    const config = loadConfig(
      {
        ...token,
        CLAWDIE_HOSTD_ZFS_TASKS_DATASET: 'tank/clawdie/tasks',
        CLAWDIE_HOSTD_JAILS_ROOT: '/clawdie/jails',
        CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT: 'tank/bastille/jails/browser/root@hostd-g0007',
        CLAWDIE_HOSTD_PF_ANCHOR: 'clawdie',
        CLAWDIE_HOSTD_INTERFACE_GROUP: 'clawdietask',
        CLAWDIE_HOSTD_QUOTA: '512M',
      },
      undefined,
      'freebsd',
    );
    assert.deepEqual(config.freebsd, {
      tasksDataset: 'tank/clawdie/tasks',
      jailsRoot: '/clawdie/jails',
      templateSnapshot: 'tank/bastille/jails/browser/root@hostd-g0007',
      pfAnchor: 'clawdie',
      interfaceGroup: 'clawdietask',
      quota: '512M',
    });
  });

  const invalid: Array<[string, string, RegExp]> = [
    ['CLAWDIE_HOSTD_ZFS_TASKS_DATASET', 'zroot', /below a pool/],
    ['CLAWDIE_HOSTD_ZFS_TASKS_DATASET', 'zroot/hostd tasks', /below a pool/],
    ['CLAWDIE_HOSTD_ZFS_TASKS_DATASET', 'zroot/hostd@snap', /below a pool/],
    ['CLAWDIE_HOSTD_JAILS_ROOT', 'var/hostd/jails', /absolute path/],
    ['CLAWDIE_HOSTD_JAILS_ROOT', '/var/hostd/jails/', /without a trailing slash/],
    ['CLAWDIE_HOSTD_JAILS_ROOT', '/var/"x"', /absolute path/],
    ['CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT', 'zroot/bastille/jails/browser/root', /dataset@name/],
    ['CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT', 'zroot/x@a@b', /dataset@name/],
    ['CLAWDIE_HOSTD_PF_ANCHOR', 'hostd/tasks', /PF anchor name/],
    ['CLAWDIE_HOSTD_PF_ANCHOR', '_hostd', /PF anchor name/],
    ['CLAWDIE_HOSTD_INTERFACE_GROUP', 'hostd1', /may not end in a digit/],
    ['CLAWDIE_HOSTD_INTERFACE_GROUP', 'a-very-long-group', /1–15 characters/],
    ['CLAWDIE_HOSTD_QUOTA', '2GB', /ZFS size/],
    ['CLAWDIE_HOSTD_QUOTA', '0', /ZFS size/],
  ];
  for (const [name, value, message] of invalid) {
    it(`refuses ${name}=${value}, naming the variable`, () => {
      assert.throws(
        () => loadConfig({ ...token, [name]: value }, undefined, 'freebsd'),
        (error: Error) => error.message.includes(`${name}: `) && message.test(error.message),
      );
    });
  }
});

describe('hostd config: the warm pool under demand', () => {
  it('grows to twice the floor by default, to CLAWDIE_HOSTD_POOL_MAX when set, never below the floor', () => {
    const of = (env: Record<string, string>) => {
      const config = loadConfig({ ...token, ...env });
      return [config.poolSize, config.poolMax, config.poolWindowMs];
    };
    assert.deepEqual(of({}), [0, 0, 60_000]);
    assert.deepEqual(of({ CLAWDIE_HOSTD_POOL_SIZE: '2' }), [2, 4, 60_000]);
    assert.deepEqual(
      of({ CLAWDIE_HOSTD_POOL_SIZE: '2', CLAWDIE_HOSTD_POOL_MAX: '6' }),
      [2, 6, 60_000],
    );
    assert.deepEqual(
      of({ CLAWDIE_HOSTD_POOL_SIZE: '2', CLAWDIE_HOSTD_POOL_MAX: '1' }),
      [2, 2, 60_000],
    );
    assert.deepEqual(of({ CLAWDIE_HOSTD_POOL_WINDOW_MS: '5000' })[2], 5000);
  });

  it('refills after a hand-out within 3 s by default; CLAWDIE_HOSTD_POOL_QUIET_WAIT_MS=0 at once', () => {
    assert.equal(loadConfig(token).poolQuietWaitMs, 3000);
    const now = loadConfig({ ...token, CLAWDIE_HOSTD_POOL_QUIET_WAIT_MS: '0' });
    assert.equal(now.poolQuietWaitMs, 0);
    assert.throws(
      () => loadConfig({ ...token, CLAWDIE_HOSTD_POOL_QUIET_WAIT_MS: '-1' }),
      /CLAWDIE_HOSTD_POOL_QUIET_WAIT_MS/,
    );
  });
});

describe('hostd config: task logs', () => {
  it('defaults to /var/log/hostd, 500 files, 256 MiB; the FreeBSD layout logs there too', async () => {
    const { freeBsdLayout } = await import('../../hostd/src/drivers/select-driver.js');
    const config = loadConfig(token);
    assert.deepEqual(config.taskLogs, {
      dir: '/var/log/hostd',
      keep: 500,
      maxBytes: 256 * 1024 * 1024,
    });
    const moved = loadConfig({
      ...token,
      CLAWDIE_HOSTD_LOG_DIR: '/srv/logs/hostd',
      CLAWDIE_HOSTD_TASK_LOGS_KEEP: '20',
      CLAWDIE_HOSTD_TASK_LOGS_MAX_MB: '5',
    });
    assert.deepEqual(moved.taskLogs, {
      dir: '/srv/logs/hostd',
      keep: 20,
      maxBytes: 5 * 1024 * 1024,
    });
    assert.equal(freeBsdLayout(moved).logDir, '/srv/logs/hostd');
    assert.throws(
      () => loadConfig({ ...token, CLAWDIE_HOSTD_LOG_DIR: 'logs/' }),
      /CLAWDIE_HOSTD_LOG_DIR: must be an absolute path/,
    );
  });
});
