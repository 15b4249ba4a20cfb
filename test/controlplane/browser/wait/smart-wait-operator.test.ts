import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PageState } from '@clawdie/kit/jail-api';
import sharp from 'sharp';
import type { BrowserOperator } from '../../../../controlplane/src/browser/operator/browser-operator.js';
import { withSmartWait } from '../../../../controlplane/src/browser/wait/smart-wait-operator.js';
import { WaitEngine } from '../../../../controlplane/src/browser/wait/wait-engine.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { testImages } from '../../../support/test-images.js';

const solid = (colour: string) =>
  sharp({ create: { width: 640, height: 400, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

function screen(clock: { now(): number }, changeAt: number | null): BrowserOperator {
  const fake = createFakeOperator({ viewport: { width: 640, height: 400 } });
  const frames = Promise.all([solid('#ffffff'), solid('#3355aa')]);
  return {
    ...fake.operator,
    async screenshot() {
      const [before, after] = await frames;
      const shot = await fake.operator.screenshot();
      return { ...shot, jpeg: changeAt !== null && clock.now() >= changeAt ? after : before };
    },
  };
}

/**
 * A 1280×800 page with a focused field whose caret blinks every 500 ms (or shows when `caretAt`
 * says) and a clock that ticks every second; at `changeAt` a 400×200 result panel appears (issue
 * 24, 2). A capture asked without the caret has none unless `hides` is false (a surface that
 * cannot hide it); `asked` records what each capture asked.
 */
function busyPage(
  clock: { now(): number },
  changeAt: number,
  {
    caretAt = (t: number) => Math.floor(t / 500) % 2 === 1,
    hides = true,
    asked = [] as boolean[],
  } = {},
): BrowserOperator {
  const fake = createFakeOperator({ viewport: { width: 1280, height: 800 } });
  const cache = new Map<string, Promise<Buffer>>();
  const draw = (caret: boolean, second: number, panel: boolean) => {
    const key = `${caret}/${second}/${panel}`;
    let image = cache.get(key);
    if (!image) {
      const box = (width: number, height: number, background: string) =>
        sharp({ create: { width, height, channels: 3, background } })
          .png()
          .toBuffer();
      image = (async () => {
        const layers = [
          { input: await box(420, 40, '#dddddd'), left: 100, top: 100 },
          ...(caret ? [{ input: await box(2, 22, '#000000'), left: 110, top: 109 }] : []),
          {
            input: await box(24, 16, `#${(30 + second * 40).toString(16)}3030`),
            left: 1200,
            top: 10,
          },
          ...(panel ? [{ input: await box(400, 200, '#2255aa'), left: 400, top: 400 }] : []),
        ];
        return sharp({ create: { width: 1280, height: 800, channels: 3, background: '#ffffff' } })
          .composite(layers)
          .jpeg()
          .toBuffer();
      })();
      cache.set(key, image);
    }
    return image;
  };
  return {
    ...fake.operator,
    async screenshot(_signal, options) {
      const t = clock.now();
      const hidden = options?.hideCaret === true;
      asked.push(hidden);
      const shot = await fake.operator.screenshot();
      const jpeg = await draw(
        caretAt(t) && !(hidden && hides),
        Math.floor(t / 1000) % 5,
        t >= changeAt,
      );
      return { ...shot, jpeg };
    },
  };
}

/** The operator with its page state as `page` says: the page signals (network idle, loading). */
function withPage(
  operator: BrowserOperator,
  page: () => Partial<PageState> | Error,
): BrowserOperator {
  return {
    ...operator,
    async state() {
      const state = page();
      if (state instanceof Error) throw state;
      return { url: 'https://shop.test/', title: 'Shop', loading: false, ...state };
    },
  };
}

describe('smart wait()', () => {
  it('settles after 500 ms of quiet while the page reports its network idle as long', async () => {
    const clock = createManualClock(0);
    const page = withPage(screen(clock, 1200), () => ({ network_idle_ms: 5000 }));
    const engine = new WaitEngine({ images: testImages, clock });
    const operator = withSmartWait(page, engine, { settleMs: 1000, quickSettleMs: 500 });
    await operator.execute([{ type: 'wait', ms: 5000 }]);
    assert.ok(clock.now() >= 1700 && clock.now() < 2200, `returned at ${clock.now()} ms`);
  });

  it('keeps the full settle time while a request is in flight, the page loads or cannot say', async () => {
    const pages: (() => Partial<PageState> | Error)[] = [
      () => ({ network_idle_ms: 0 }),
      () => ({ network_idle_ms: 300 }),
      () => ({ network_idle_ms: 5000, loading: true }),
      () => ({}),
      () => new Error('the page is navigating'),
    ];
    for (const state of pages) {
      const clock = createManualClock(0);
      const engine = new WaitEngine({ images: testImages, clock });
      const operator = withSmartWait(withPage(screen(clock, 1200), state), engine, {
        settleMs: 1000,
        quickSettleMs: 500,
      });
      const waited = operator.execute([{ type: 'wait', ms: 5000 }]);
      // The page that cannot answer fails the final state read too, after the wait.
      if (state() instanceof Error) await assert.rejects(waited, /navigating/);
      else await waited;
      const label = JSON.stringify(state());
      assert.ok(
        clock.now() >= 2200 && clock.now() < 3600,
        `${label}: returned at ${clock.now()} ms`,
      );
    }
  });

  // These two keep the caret in every capture (a surface that cannot hide it, the desktop): the
  // settle tracker alone must tell it from the page's change.
  it('returns within 1.5 s of the real change on a page with a blinking caret and a ticking clock', async () => {
    const clock = createManualClock(0);
    const engine = new WaitEngine({ images: testImages, clock });
    const page = busyPage(clock, 2600, { hides: false });
    const operator = withSmartWait(page, engine, { settleMs: 1000 });
    const response = await operator.execute([{ type: 'wait', ms: 5000 }]);
    assert.equal(response.results[0]?.status, 'ok');
    assert.ok(clock.now() >= 3600 && clock.now() <= 4100, `returned at ${clock.now()} ms`);
  });

  it('still waits for a real slow change on that page', async () => {
    const clock = createManualClock(0);
    const engine = new WaitEngine({ images: testImages, clock });
    const page = busyPage(clock, 4200, { hides: false });
    const operator = withSmartWait(page, engine, { settleMs: 1000 });
    await operator.execute([{ type: 'wait', ms: 9000 }]);
    assert.ok(clock.now() >= 5200 && clock.now() <= 5700, `returned at ${clock.now()} ms`);
  });

  it('captures without the caret: a blink seen once is not the page changing', async () => {
    // Captures a second apart under load can see the caret on, on, off once, on again: one small
    // change, alone long enough to pass for the page's (the e2e flake of session 18). The wait's
    // captures leave the caret out; the model's screenshot keeps it.
    const once = (t: number) => !(t >= 600 && t < 1100);
    const run = async (hides: boolean) => {
      const clock = createManualClock(0);
      const asked: boolean[] = [];
      const page = busyPage(clock, 4200, { caretAt: once, hides, asked });
      const engine = new WaitEngine({ images: testImages, clock });
      const operator = withSmartWait(page, engine, { settleMs: 1000 });
      await operator.execute([{ type: 'wait', ms: 9000 }]);
      const waited = clock.now();
      await operator.screenshot();
      return { waited, asked };
    };
    const hidden = await run(true);
    assert.ok(hidden.waited >= 5200 && hidden.waited <= 5700, `returned at ${hidden.waited} ms`);
    assert.ok(
      hidden.asked.slice(0, -1).every((hide) => hide),
      'every wait capture hides it',
    );
    assert.equal(hidden.asked.at(-1), false, "the model's screenshot keeps the caret");
    const shown = await run(false);
    assert.ok(shown.waited < 4200, `with the caret in its captures it ended at ${shown.waited} ms`);
  });

  it('returns once the screen changed and settled, well before the blind sleep', async () => {
    const clock = createManualClock(0);
    const operator = withSmartWait(
      screen(clock, 1200),
      new WaitEngine({ images: testImages, clock }),
      {
        settleMs: 1000,
      },
    );
    const response = await operator.execute([{ type: 'wait', ms: 5000 }]);
    assert.equal(response.results[0]?.status, 'ok');
    assert.ok(clock.now() >= 2200 && clock.now() < 3600, `returned at ${clock.now()} ms`);
  });

  it('never waits longer than the blind sleep on a static screen', async () => {
    const clock = createManualClock(0);
    const operator = withSmartWait(
      screen(clock, null),
      new WaitEngine({ images: testImages, clock }),
    );
    await operator.execute([{ type: 'wait', ms: 5000 }]);
    assert.ok(clock.now() >= 5000 && clock.now() <= 5000 + 3000, `${clock.now()}`);
  });

  it('passes every other batch through to the operator', async () => {
    const fake = createFakeOperator();
    const operator = withSmartWait(
      fake.operator,
      new WaitEngine({ images: testImages, clock: createManualClock(0) }),
    );
    await operator.execute([
      { type: 'click', x: 1, y: 1 },
      { type: 'wait', ms: 10 },
    ]);
    assert.deepEqual(
      fake.executed.map((a) => a.type),
      ['click', 'wait'],
    );
  });
});
