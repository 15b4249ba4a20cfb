import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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

describe('smart wait()', () => {
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
