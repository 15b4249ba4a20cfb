// A screenshot after a change shows the change (issue 24, 1: the guard any faster screenshot path
// must pass): after each kind of change an action or the page makes — a sync DOM change, a CSS
// transition, a canvas animation, a DOM change on a reply 150 ms later, a navigation, a new tab, a
// scroll — the next screenshot shows it, checked by the colour of a probe square in the decoded
// JPEG, at DPR 1 and 2, with the live view's screencast running beside it in one case. A
// screenshot path that served the latest screencast frame unchecked failed four of these
// (docs/performance.md, "Screenshots from the frame stream").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig, startJailService } from '@clawdie/jail-service/server';
import { type Action, screenshotHeaders } from '@clawdie/kit/jail-api';
import sharp from 'sharp';
import { readFrames } from '../e2e/dashboard-multipart.js';
import { jailChromiumEnv, requires } from '../support/capabilities.js';
import { silentLogger } from '../support/silent-logger.js';
import { type StaticSite, startStaticSite } from '../support/static-site.js';
import { assertAllOk, createJailClient, type JailClient, TOKEN } from './jail-harness.js';
import { BLUE, GREEN, PROBE, RED, screenshotPages } from './screenshot-pages.js';

const VIEWPORT = { width: 400, height: 300 };
type Rgb = readonly [number, number, number];

for (const dpr of [1, 2]) {
  describe(`screenshots after a change (real Chromium, DPR ${dpr})`, requires('chromium'), () => {
    let site: StaticSite;
    let client: JailClient;
    let close: () => Promise<void>;
    before(async () => {
      site = await startStaticSite(screenshotPages);
      const config = loadConfig({
        CLAWDIE_JAIL_TOKEN: TOKEN,
        ...jailChromiumEnv,
        CLAWDIE_JAIL_VIEWPORT: `${VIEWPORT.width}x${VIEWPORT.height}`,
        CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: String(dpr),
      });
      const service = await startJailService(config, silentLogger);
      client = createJailClient(service.url);
      close = () => service.close();
    });
    after(async () => {
      await close?.();
      await site?.close();
    });

    /** The probe's colour in a fresh screenshot, after checking its size and headers. */
    const probeColour = async (): Promise<Rgb> => {
      const { response, jpeg } = await client.screenshot();
      assert.equal(response.status, 200);
      const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual(
        [info.width, info.height],
        [VIEWPORT.width * dpr, VIEWPORT.height * dpr],
        'the image is the viewport at the device pixel ratio',
      );
      assert.equal(response.headers.get(screenshotHeaders.imageWidth), String(info.width));
      assert.equal(response.headers.get(screenshotHeaders.devicePixelRatio), String(dpr));
      const at = (PROBE.y * dpr * info.width + PROBE.x * dpr) * info.channels;
      return [data[at], data[at + 1], data[at + 2]] as unknown as Rgb;
    };
    const assertColour = async (expected: Rgb, what: string) => {
      const seen = await probeColour();
      const close = seen.every((value, i) => Math.abs(value - (expected[i] as number)) <= 40);
      assert.ok(
        close,
        `${what}: probe is rgb(${seen}) in the screenshot, expected rgb(${expected})`,
      );
    };
    /** A fresh page showing red (checked twice: the second answer may come from a frame). */
    const open = async (path: string) => {
      const reset = await client.fetch('/reset', { method: 'POST' });
      assert.equal(reset.status, 200);
      assertAllOk(await client.run([{ type: 'navigate', url: `${site.url}${path}` }]));
      await assertColour(RED, `${path} before the action`);
      await assertColour(RED, `${path} before the action, again`);
    };
    const act = async (action: Action) => assertAllOk(await client.run([action]));
    const click = { type: 'click', x: 300, y: 250 } as const;
    /** Returns as soon as the page reports its late change made (the title), then no later. */
    const whenDone = async () => {
      const deadline = performance.now() + 5000;
      while ((await client.state()).title !== 'done')
        assert.ok(performance.now() < deadline, 'the page never reported its change');
    };

    it('shows a DOM change the click made synchronously', async () => {
      await open('/sync');
      await act(click);
      await assertColour(BLUE, 'after the click');
    });

    it('shows the end of a CSS transition as soon as it ended', async () => {
      await open('/transition');
      await act(click);
      await whenDone();
      await assertColour(BLUE, 'after the transition');
    });

    it('shows the last frame of a canvas animation as soon as it was drawn', async () => {
      await open('/canvas');
      await act(click);
      await whenDone();
      await assertColour(BLUE, 'after the animation');
    });

    it('shows a DOM change made on a reply 150 ms after the click', async () => {
      await open('/xhr');
      await act(click);
      await whenDone();
      await assertColour(BLUE, 'after the reply');
    });

    it('shows the page a navigation loaded', async () => {
      await open('/sync');
      await act({ type: 'navigate', url: `${site.url}/green` });
      await assertColour(GREEN, 'after the navigation');
    });

    it('shows the new tab a target=_blank link opened', async () => {
      await open('/opener');
      await act({ type: 'click', x: 200, y: 180 });
      assert.equal((await client.state()).title, 'green', 'the popup is the active page');
      await assertColour(GREEN, 'after the popup opened');
    });

    it('keeps the live view streaming beside it (two screencasts on one page)', async () => {
      await open('/sync');
      const live = await client.fetch('/screencast?fps=10');
      assert.equal(live.status, 200);
      await act(click);
      await assertColour(BLUE, 'after the click, with the live view on');
      const frames = await readFrames(live, 1000);
      const last = frames.at(-1);
      assert.ok(last, 'the live view sent no frame');
      const { data, info } = await sharp(last).raw().toBuffer({ resolveWithObject: true });
      const x = Math.round((PROBE.x / VIEWPORT.width) * info.width);
      const y = Math.round((PROBE.y / VIEWPORT.height) * info.height);
      const at = (y * info.width + x) * info.channels;
      assert.ok(
        (data[at + 2] ?? 0) > 200 && (data[at] ?? 255) < 60,
        'the live view shows the change',
      );
    });

    it('shows what a scroll brought into view', async () => {
      await open('/tall');
      await act({ type: 'scroll', x: 200, y: 150, direction: 'down', amount: 3000 });
      await assertColour(BLUE, 'after the scroll');
    });
  });
}
