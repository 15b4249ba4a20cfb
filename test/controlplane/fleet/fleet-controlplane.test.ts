// CLAWDIE_FLEET=on through the composition root: hosts registered with `clawdie hosts add` (its
// real command code, on the data directory's database and vault key), real hostd apps on
// loopback (fake clones), the server's real browser source, dashboard and audit.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../../controlplane/src/config.js';
import { runHostsCommand } from '../../../controlplane/src/ingress/cli/hosts-command.js';
import { createTestControlplane, testConfig } from '../../support/controlplane.js';
import { ADMIN_TOKEN, logIn } from '../ingress/dashboard/dashboard-fixture.js';
import { startHostd } from './fleet-fixture.js';

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

describe('a controlplane placing tasks on registered jail hosts', () => {
  it('refuses CLAWDIE_FLEET=on beside a single hostd or jail-service', () => {
    assert.throws(
      () =>
        loadConfig({
          CLAWDIE_FLEET: 'on',
          CLAWDIE_HOSTD_URL: 'http://127.0.0.1:7070',
          CLAWDIE_HOSTD_TOKEN: 'x'.repeat(32),
        }),
      /CLAWDIE_FLEET=on places tasks on the registered jail hosts: unset CLAWDIE_HOSTD_URL/,
    );
    assert.equal(loadConfig({ CLAWDIE_FLEET: 'on' }).embeddedHostd.enabled, false);
  });

  it('heartbeats the hosts at start (destroying orphaned clones), shows them on the dashboard and makes a clone on one with its token', async () => {
    const config = testConfig({ CLAWDIE_FLEET: 'on', CLAWDIE_ADMIN_TOKEN: ADMIN_TOKEN });
    const hostds = { linux: await startHostd(), bsd: await startHostd() };
    for (const [name, hostd] of Object.entries(hostds)) {
      closers.push(hostd.close);
      let token = '';
      const labels = name === 'bsd' ? { os: 'freebsd' } : { os: 'linux', display: 'yes' };
      const code = await runHostsCommand(
        { name: 'hosts-add', host: name, url: hostd.url, labels, capacity: 2 },
        config,
        (text) => {
          token += text;
        },
      );
      assert.equal(code, 0);
      hostd.useToken(token.trim());
    }
    const controlplane = await createTestControlplane({
      config,
      role: 'server',
      browsers: 'config',
    });
    closers.push(controlplane.close);
    assert.match(controlplane.browsers, /2 registered jail host\(s\)/);

    const page = await (
      await controlplane.app.request('/dashboard/hosts', {
        headers: { cookie: await logIn(controlplane.app) },
      })
    ).text();
    assert.match(page, /data-hosts="2"/);
    for (const name of ['linux', 'bsd'])
      assert.match(page, new RegExp(`data-host="${name}"[\\s\\S]*?s-ok">up<[\\s\\S]*?0/2`));

    const lease = await controlplane.source.provider.acquire({
      taskId: 'desk-task',
      allowedDomains: ['example.com'],
      display: true,
    });
    assert.match(lease.id, /^linux\//);
    assert.deepEqual(
      (await hostds.linux.manager.list()).map((clone) => clone.taskId),
      ['desk-task'],
    );
    assert.deepEqual(await hostds.bsd.manager.list(), []);
    const busy = await (
      await controlplane.app.request('/dashboard/hosts', {
        headers: { cookie: await logIn(controlplane.app) },
      })
    ).text();
    assert.match(busy, /linux\/browsertask/);
    await lease.release();
    assert.deepEqual(await hostds.linux.manager.list(), []);
    const audited = (await controlplane.audit.list({ limit: 50, taskId: 'desk-task' })).map(
      (row) => row.type,
    );
    assert.deepEqual(audited, ['clone-created', 'clone-destroyed']);
  });
});
