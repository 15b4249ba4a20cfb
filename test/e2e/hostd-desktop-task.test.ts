// A `surface: 'desktop'` task through a real in-process hostd (root): the clone gets its own Xvfb
// with headful Chromium, start_url opens there through the clone's jail-service, and the loop
// drives the whole display through that jail-service's /desktop surface, which runs xwd + xdotool
// inside the clone; this (controlplane) process starts none. Clones are host-global, so this file
// holds the host lock while it runs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { VisionModel } from '../../controlplane/src/agent/model/chat-types.js';
import { modelDivisors } from '../../controlplane/src/agent/uitars/index.js';
import { xvfbCommand } from '../../hostd/src/drivers/linux/sandbox.js';
import { missingCapabilities, skipFile } from '../support/capabilities.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { submit } from '../support/submit-task.js';
import { watchXTools } from '../support/x-tool-watch.js';
import { formSite } from './support/desktop-form-site.js';
import {
  type HostdControlplane,
  serveOnLoopback,
  settledLeftovers,
  startHostdControlplane,
} from './support/hostd-controlplane.js';

const TYPED = 'hello desktop';
const missing = missingCapabilities('linux-clones', 'x11', 'chromium');

/** The screen hostd gives every clone's Xvfb (`-screen 0 WxHxD`). */
function cloneScreen(): { width: number; height: number } {
  const argv = xvfbCommand();
  const [width, height] = (argv[argv.indexOf('-screen') + 2] ?? '').split('x').map(Number);
  assert.ok(width && height, `no -screen size in ${argv.join(' ')}`);
  return { width, height };
}

if (!skipFile('desktop task in a hostd clone display', missing)) {
  describe('desktop task in a hostd clone display (real Linux driver)', () => {
    let h: HostdControlplane;
    const site = formSite();
    let page: Awaited<ReturnType<typeof serveOnLoopback>>;
    // The form site first: the clones may reach exactly its address:port on the host, no more.
    before(async () => {
      page = await serveOnLoopback(site.fetch);
      h = await startHostdControlplane({ sites: [new URL(page.url).host] });
    });
    after(async () => {
      await h?.close();
      page?.server.closeAllConnections();
      page?.server.close();
    });

    it('types into the clone’s headful Chromium with xdotool and screenshots the whole display, all inside the clone', async () => {
      const screen = cloneScreen();
      const divisors = modelDivisors('1.5', screen);
      // The screen's centre: inside Chromium's window, on the input that fills the page.
      const centre = `(${Math.round(divisors.width / 2)},${Math.round(divisors.height / 2)})`;
      const script = createPerTaskScriptModel([
        `Thought: Focus the text field.\nAction: click(start_box='<|box_start|>${centre}<|box_end|>')`,
        `Thought: Type and submit.\nAction: type(content='${TYPED}\\n')`,
        "Thought: Sent.\nAction: finished(content='typed')",
      ]);
      // What the host sees on the task's display while it runs, read before the first step.
      const seen: { display?: string; geometry?: string; windows?: string } = {};
      const model: VisionModel = {
        ...script,
        async complete(request, signal) {
          const turn = request.messages.filter((message) => message.role === 'assistant').length;
          if (turn === 0) {
            const display = h.controlplane.source.browsers.list()[0]?.lease.display ?? '';
            const xdotool = (...args: string[]) =>
              execFileSync('xdotool', args, { env: { DISPLAY: display }, encoding: 'utf8' });
            seen.display = display;
            seen.geometry = xdotool('getdisplaygeometry').trim();
            seen.windows = xdotool('search', '--onlyvisible', '--name', '.', 'getwindowname', '%@');
          }
          // The model "sees" the page has gone before it says it is done.
          if (turn === 2) await Promise.race([site.submission, sleep(15_000)]);
          return script.complete(request, signal);
        },
      };
      const tasks = h.controlplane.createTasks(model);
      const watch = watchXTools();
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
        assert.equal(result.summary, 'typed');
        assert.equal(result.step_count, 3);
        assert.match(seen.display ?? '', /^:\d+$/, 'the lease had an X display');
        assert.equal(seen.geometry, `${screen.width} ${screen.height}`);
        assert.match(
          seen.windows ?? '',
          /Desktop form/,
          'start_url opened in the clone’s Chromium',
        );
        assert.deepEqual(site.submitted, [TYPED], 'the typed text arrived in the page');
        const xTools = watch.stop();
        assert.ok(
          xTools.some((sighting) => sighting.command === 'xwd'),
          `xwd ran somewhere: ${JSON.stringify(xTools)}`,
        );
        const onHost = xTools.filter(
          (sighting) => sighting.parentPid === process.pid || sighting.uid === process.getuid?.(),
        );
        assert.deepEqual(onHost, [], 'no X tool ran as this process’s child or as its user');
        assert.equal(
          existsSync(new URL('../../controlplane/src/desktop', import.meta.url)),
          false,
          'the controlplane has no X tool code left',
        );

        const final = await sharp(result.final_screenshot_path ?? '').metadata();
        assert.deepEqual({ width: final.width, height: final.height }, screen);
        const row = await h.controlplane.repository.getTask(result.trace_id);
        assert.equal(row?.status, 'finished');

        const audit = await h.controlplane.audit.list({ taskId: result.trace_id, limit: 1000 });
        const started = audit.find((entry) => entry.type === 'task-started');
        assert.equal(started?.data.surface, 'desktop');
        const created = audit.find((entry) => entry.type === 'clone-created');
        const destroyed = audit.find((entry) => entry.type === 'clone-destroyed');
        assert.ok(created && destroyed, JSON.stringify(audit.map((entry) => entry.type)));
        assert.equal(destroyed.data.clone, created.data.clone);
        assert.deepEqual(destroyed.data.leftovers, []);
      } finally {
        watch.stop();
        await tasks.close();
      }
      assert.deepEqual(await h.manager.list(), []);
      assert.deepEqual(await settledLeftovers(), []);
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
