import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  createReplayModel,
  loadReplayModel,
} from '../../../../controlplane/src/agent/model/replay-model.js';

describe('replay model', () => {
  const request = { messages: [{ role: 'user' as const, content: 'x' }] };

  it('returns the recorded outputs in order, then fails clearly', async () => {
    const model = createReplayModel(['one', 'two']);
    assert.equal(model.isReplay, true);
    assert.equal((await model.complete(request)).text, 'one');
    assert.equal((await model.complete(request)).text, 'two');
    await assert.rejects(model.complete(request), /replay exhausted after 2 outputs/);
  });

  it('loads a replay file and names the file and field on bad input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ name: 'demo', outputs: ['Action: finished()'] }));
    const model = await loadReplayModel(good);
    assert.equal(model.name, 'replay:demo');
    assert.equal((await model.complete(request)).text, 'Action: finished()');

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ outputs: [] }));
    await assert.rejects(
      loadReplayModel(bad),
      (error: Error) => error.message.includes(bad) && error.message.includes('outputs'),
    );
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{not json');
    await assert.rejects(loadReplayModel(broken), (error: Error) => error.message.includes(broken));
  });
});
