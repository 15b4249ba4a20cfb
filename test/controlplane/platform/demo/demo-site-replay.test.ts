import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import { demoTask } from '../../../../controlplane/src/platform/demo/demo-site-server.js';
import { requires } from '../../../support/capabilities.js';
import type { DemoReplay } from '../../../support/demo-site-replay.js';
import { generateDemoReplay, writeDemoReplayFile } from '../../../support/demo-site-replay.js';

const checkedIn = fileURLToPath(
  new URL('../../../../controlplane/demo-site/demo-replay.json', import.meta.url),
);

/** Replaces click coordinates by a placeholder, keeping them in a list. */
function splitCoordinates(outputs: readonly string[]): { shape: string[]; points: number[][] } {
  const points: number[][] = [];
  const shape = outputs.map((text) =>
    text.replace(/\((\d+),(\d+)\)/g, (_match, x: string, y: string) => {
      points.push([Number(x), Number(y)]);
      return '(x,y)';
    }),
  );
  return { shape, points };
}

describe('demo replay generator', requires('chromium'), () => {
  for (const [width, height, dpr] of [
    [1280, 800, 1],
    [1280, 800, 2],
    [390, 844, 1],
  ] as const) {
    it(`plays the demo task to the expected value in Chromium at ${width}×${height}, DPR ${dpr}`, async () => {
      const replay = await generateDemoReplay({
        viewport: { width, height },
        deviceScaleFactor: dpr,
      });
      assert.equal(replay.outputs.length, 6, replay.outputs.join('\n---\n'));
      assert.equal(
        replay.outputs.at(-1)?.split('Action: ')[1],
        `finished(content='${demoTask.expectedValue}')`,
      );
    });
  }

  it('writes a file the controlplane replay model plays back', async (t) => {
    const directory = await mkdtemp(join(tmpdir(), 'clawdie-replay-'));
    t.after(() => rm(directory, { recursive: true, force: true }));
    const replay: DemoReplay = { name: 'x', description: 'y', outputs: ['Action: wait()', 'z'] };
    await writeDemoReplayFile(join(directory, 'replay.json'), replay);
    const model = await loadReplayModel(join(directory, 'replay.json'));
    assert.equal(model.isReplay, true);
    assert.equal((await model.complete({ messages: [] })).text, 'Action: wait()');
  });

  it('matches the checked-in demo-replay.json (actions exactly, clicks within 4 model px)', async () => {
    const stored = JSON.parse(await readFile(checkedIn, 'utf8')) as DemoReplay;
    const fresh = splitCoordinates((await generateDemoReplay()).outputs);
    const expected = splitCoordinates(stored.outputs);
    assert.deepEqual(
      expected.shape,
      fresh.shape,
      'regenerate controlplane/demo-site/demo-replay.json',
    );
    fresh.points.forEach(([x = 0, y = 0], index) => {
      const [storedX = 0, storedY = 0] = expected.points[index] ?? [];
      assert.ok(
        Math.abs(x - storedX) <= 4 && Math.abs(y - storedY) <= 4,
        `click ${index}: (${x},${y}) vs stored (${storedX},${storedY})`,
      );
    });
  });
});
