// hostd with the FreeBSD driver, selected from its config as on a FreeBSD host, over the in-memory
// FreeBSD host (every argv checked against the real tools' grammar), behind hostd's real HTTP app
// on loopback; the controlplane reaches it through its hostd provider and HostdClient exactly as
// `npm start` with CLAWDIE_HOSTD_URL. The fake jail's exec.start runs the real jail-service with a
// real Chromium (test/hostd/freebsd/fake/jail-service-processes.ts), so the demo task really runs
// "in the jail"; only the jail's addresses are mapped to loopback (fake/loopback-driver.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runDemo } from '../../controlplane/src/ingress/cli/demo-command.js';
import {
  demoTask,
  type RunningDemoSite,
  startDemoSite,
} from '../../controlplane/src/platform/demo/demo-site-server.js';
import type { CloneManager } from '../../hostd/src/clones/clone-manager.js';
import type { JailServiceProcesses } from '../hostd/freebsd/fake/jail-service-processes.js';
import type { FakeFreeBSD } from '../hostd/freebsd/fake-freebsd.js';
import { missingCapabilities, skipFile } from '../support/capabilities.js';
import type { TestControlplane } from '../support/controlplane.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { submit } from '../support/submit-task.js';
import {
  type FreeBsdFakeControlplane,
  startFreeBsdFakeControlplane,
} from './support/freebsd-fake-controlplane.js';
import { closeServer, serveOnLoopback } from './support/hostd-controlplane.js';

const _TOKEN = `hostd-freebsd-fake-${process.pid}-0123456789`;

// A page that pulls an image from a host outside the task's domains: Chromium in the jail sends
// the request to the clone's egress proxy (CLAWDIE_JAIL_PROXY), which refuses it.
const egressPage = (request: Request) => {
  const { port } = new URL(request.url);
  return new Response(
    `<!doctype html><title>egress</title><h1>hello</h1><img src="http://127.0.0.2:${port}/pixel.png">`,
    { headers: { 'content-type': 'text/html' } },
  );
};

const missing = missingCapabilities('chromium');
if (
  !skipFile('controlplane tasks in FreeBSD jails on the fake host (real jail-service)', missing)
) {
  describe('controlplane tasks in FreeBSD jails on the fake host (real jail-service)', () => {
    let h: FreeBsdFakeControlplane;
    let fake: FakeFreeBSD;
    let services: JailServiceProcesses;
    let demoSite: RunningDemoSite;
    let egressSite: Awaited<ReturnType<typeof serveOnLoopback>>;
    let manager: CloneManager;
    let platform: TestControlplane;

    before(async () => {
      demoSite = await startDemoSite();
      egressSite = await serveOnLoopback(egressPage);
      const sites = [demoSite.url, egressSite.url].map((url) => new URL(url).host);
      h = await startFreeBsdFakeControlplane({ sites, anyHost: true });
      ({ fake, services, manager, controlplane: platform } = h);
      assert.deepEqual(h.preflight, []);
    });

    after(async () => {
      await h?.close();
      await demoSite?.close();
      closeServer(egressSite);
    });

    it('runs the demo task in a jail clone and destroys the clone, leaving nothing on the host', async () => {
      const { result } = await runDemo(platform.createTasks, { site: demoSite });
      assert.equal(result.status, 'finished', JSON.stringify(result));
      assert.equal(result.summary, demoTask.expectedValue);

      const audit = await platform.audit.list({ taskId: result.trace_id, limit: 1000 });
      const created = audit.find((row) => row.type === 'clone-created');
      const destroyed = audit.find((row) => row.type === 'clone-destroyed');
      assert.equal(created?.data.clone, 'browsertask001');
      assert.deepEqual(created?.data.isolation, { level: 'full', reasons: [] });
      assert.deepEqual(destroyed?.data, { clone: 'browsertask001', leftovers: [] });

      // The jail was made by the real tools' commands, its service answered the driver's health
      // check at the jail's address, and it ran with hostd's egress proxy.
      assert.ok(
        fake.plan.some(
          (line) =>
            line.startsWith('/sbin/zfs clone -o quota=2G -o hostd:task=') &&
            line.endsWith(
              ' zroot/bastille/jails/browser/root@hostd-g0001 zroot/hostd/tasks/browsertask001',
            ),
        ),
      );
      assert.ok(
        fake.plan.includes(
          '/usr/sbin/jail -f /var/run/hostd/browsertask001.conf -c browsertask001',
        ),
      );
      assert.ok(fake.plan.includes('[http] GET http://10.78.0.6:9223/health'));
      const [started] = services.started;
      assert.equal(started?.name, 'browsertask001');
      assert.equal(started?.env.CLAWDIE_JAIL_HOST, '10.78.0.6');
      assert.match(started?.env.CLAWDIE_JAIL_PROXY ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(
        fake.plan.includes(
          '/usr/sbin/jail -f /var/run/hostd/browsertask001.conf -r browsertask001',
        ),
      );

      // Nothing is left: no jail, dataset, epair, anchor, rctl rule, mount, file or service.
      assert.deepEqual(fake.residue(), []);
      assert.deepEqual([...fake.state.jails.keys()], []);
      assert.deepEqual(services.runningJails(), []);
      await services.exitedAll();
      assert.deepEqual(await manager.list(), []);
    });

    it("sends the jail browser through hostd's egress proxy: a request outside the task's domains is refused and audited", async () => {
      const tasks = platform.createTasks(
        createPerTaskScriptModel(["Action: finished(content='seen')"]),
      );
      const result = await (
        await submit(tasks, {
          instruction: 'look at the page',
          start_url: `${egressSite.url}/`,
          domains: [new URL(egressSite.url).host],
        })
      ).done;
      await tasks.close();
      assert.equal(result.status, 'finished', JSON.stringify(result));
      const audit = await platform.audit.list({ taskId: result.trace_id, limit: 1000 });
      const refusals = audit.filter((row) => row.type === 'egress-refused');
      assert.ok(
        refusals.some((row) => row.data.host === '127.0.0.2' && row.data.reason === 'not-allowed'),
        JSON.stringify(audit.map((row) => row.type)),
      );
      assert.deepEqual(fake.residue(), []);
      assert.deepEqual(services.runningJails(), []);
    });
  });
}
