// A `surface: 'desktop'` task through hostd with the FreeBSD driver over the in-memory FreeBSD host
// (every argv checked against the real tools' grammar), behind hostd's real HTTP API, reached by
// the controlplane's hostd provider. The clone's jail.conf starts Xvfb inside the jail and then the
// jail-service with its desktop surface; the fake jail runs both for real (a real Xvfb and the real
// jail-service with a headful Chromium on it), so the task's xdotool/xwd run in the "jail".
// Only the jail's addresses and display number are mapped to this host (fake/jail-xvfb.ts,
// fake/jail-service-processes.ts, fake/loopback-driver.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { VisionModel } from '../../controlplane/src/agent/model/chat-types.js';
import { modelDivisors } from '../../controlplane/src/agent/uitars/index.js';
import type { CloneManager } from '../../hostd/src/clones/clone-manager.js';
import type { JailServiceProcesses } from '../hostd/freebsd/fake/jail-service-processes.js';
import type { FakeFreeBSD } from '../hostd/freebsd/fake-freebsd.js';
import { missingCapabilities, skipFile } from '../support/capabilities.js';
import type { TestControlplane } from '../support/controlplane.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { submit } from '../support/submit-task.js';
import { formSite } from './support/desktop-form-site.js';
import {
  type FreeBsdFakeControlplane,
  startFreeBsdFakeControlplane,
} from './support/freebsd-fake-controlplane.js';
import { closeServer, serveOnLoopback } from './support/hostd-controlplane.js';

const _TOKEN = `hostd-freebsd-desktop-${process.pid}-0123456789`;
const TYPED = 'hello jail desktop';
/** The screen the driver's jail.conf gives Xvfb (render.ts). */
const SCREEN = { width: 1280, height: 800 };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const missing = missingCapabilities('chromium', 'x11');
if (!skipFile('desktop task in a FreeBSD jail on the fake host', missing)) {
  describe('desktop task in a FreeBSD jail on the fake host (real Xvfb and jail-service)', () => {
    let h: FreeBsdFakeControlplane;
    let fake: FakeFreeBSD;
    let services: JailServiceProcesses;
    const site = formSite();
    let page: Awaited<ReturnType<typeof serveOnLoopback>>;
    let manager: CloneManager;
    let platform: TestControlplane;

    before(async () => {
      page = await serveOnLoopback(site.fetch);
      const sites = [new URL(page.url).host];
      h = await startFreeBsdFakeControlplane({ sites });
      ({ fake, services, manager, controlplane: platform } = h);
    });

    after(async () => {
      await h?.close();
      closeServer(page);
    });

    it('types into the jail’s headful Chromium on the jail’s own Xvfb, then destroys the jail leaving no process', async () => {
      const divisors = modelDivisors('1.5', SCREEN);
      const centre = `(${Math.round(divisors.width / 2)},${Math.round(divisors.height / 2)})`;
      const script = createPerTaskScriptModel([
        `Thought: Focus the text field.\nAction: click(start_box='<|box_start|>${centre}<|box_end|>')`,
        `Thought: Type and submit.\nAction: type(content='${TYPED}\\n')`,
        "Thought: Sent.\nAction: finished(content='typed')",
      ]);
      const seen: { lease?: string; geometry?: string; windows?: string; pids?: number[] } = {};
      const model: VisionModel = {
        ...script,
        async complete(request, signal) {
          const turn = request.messages.filter((message) => message.role === 'assistant').length;
          if (turn === 0) {
            seen.lease = platform.source.browsers.list()[0]?.lease.display ?? '';
            const display = (await services.realDisplay('browsertask001')) ?? '';
            const xdotool = (...args: string[]) =>
              execFileSync('xdotool', args, { env: { DISPLAY: display }, encoding: 'utf8' });
            seen.geometry = xdotool('getdisplaygeometry').trim();
            seen.windows = xdotool('search', '--onlyvisible', '--name', '.', 'getwindowname', '%@');
            seen.pids = services.pids();
          }
          if (turn === 2) await Promise.race([site.submission, sleep(15_000)]);
          return script.complete(request, signal);
        },
      };
      const tasks = platform.createTasks(model);
      try {
        const result = await (
          await submit(tasks, {
            instruction: `Type "${TYPED}" into the text field and submit it`,
            surface: 'desktop',
            start_url: `${page.url}/`,
            domains: [new URL(page.url).host],
            max_steps: 6,
          })
        ).done;
        assert.equal(result.status, 'finished', JSON.stringify(result));
        assert.equal(result.step_count, 3);
        assert.deepEqual(site.submitted, [TYPED], 'the typed text arrived in the page');
        assert.equal(seen.lease, ':0', 'the lease carries the jail’s display');
        assert.equal(seen.geometry, `${SCREEN.width} ${SCREEN.height}`);
        assert.match(seen.windows ?? '', /Desktop form/, 'start_url opened on the jail’s display');
        assert.equal(seen.pids?.length, 2, 'the jail ran its Xvfb and its jail-service');

        // The jail was made with the display recorded, Xvfb before the service, then destroyed.
        assert.ok(fake.plan.some((line) => line.includes(' -o hostd:display=:0 ')));
        const [started] = services.started;
        assert.equal(started?.env.DISPLAY, ':0');
        assert.equal(started?.env.CLAWDIE_JAIL_DESKTOP, 'true');
        assert.ok(
          fake.plan.includes(
            '/usr/sbin/jail -f /var/run/hostd/browsertask001.conf -r browsertask001',
          ),
        );
        const audit = await platform.audit.list({ taskId: result.trace_id, limit: 1000 });
        const destroyed = audit.find((row) => row.type === 'clone-destroyed');
        assert.deepEqual(destroyed?.data, { clone: 'browsertask001', leftovers: [] });
      } finally {
        await tasks.close();
      }
      assert.deepEqual(fake.residue(), []);
      assert.deepEqual(services.runningJails(), []);
      await services.exitedAll();
      assert.deepEqual(services.pids(), []);
      assert.deepEqual((seen.pids ?? []).filter(alive), [], 'no Xvfb or jail-service left');
      assert.deepEqual(await manager.list(), []);
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
