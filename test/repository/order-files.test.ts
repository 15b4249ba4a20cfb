// The suite's two lanes (test/support/order-files.mjs): the files that take the host lock apart,
// each lane longest first, and the weights file true to the repository.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { lanes, readWeights, weightsText } from '../support/order-files.mjs';
import { repositoryRoot } from '../support/repository-root.js';

const script = join(repositoryRoot, 'test/support/order-files.mjs');
const committed = readWeights(
  readFileSync(join(repositoryRoot, 'test/support/file-weights.txt'), 'utf8'),
);

/** Every test file of the suite, as run-tests.sh names them. */
function suiteFiles(dir = join(repositoryRoot, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'soak' ? [] : suiteFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(repositoryRoot, path)] : [];
  });
}

describe('the suite lanes (order-files.mjs)', () => {
  it('puts the lock files in their own lane, each lane longest first', () => {
    const weights = new Map([
      ['a.test.ts', { seconds: 3, lock: false }],
      ['b.test.ts', { seconds: 30, lock: true }],
      ['c.test.ts', { seconds: 50, lock: false }],
      ['d.test.ts', { seconds: 60, lock: true }],
    ]);
    const files = ['a.test.ts', 'b.test.ts', 'c.test.ts', 'd.test.ts', 'new.test.ts'];
    assert.deepEqual(lanes(files, weights), {
      lock: ['d.test.ts', 'b.test.ts'],
      // A file the weights do not know counts 5 s, in the other lane.
      other: ['c.test.ts', 'new.test.ts', 'a.test.ts'],
    });
    assert.deepEqual(lanes(['x', 'y', 'z'], new Map()), { lock: [], other: ['x', 'y', 'z'] });
  });

  it('reads and writes the weights: own time less the lock wait, and who took the lock', () => {
    const text = weightsText([
      { file: 'test/b.test.ts', ms: 12_000, lockWaitMs: 2_000 },
      { file: 'test/a.test.ts', ms: 3_000 },
    ]);
    assert.deepEqual(
      [...readWeights(`${text}not a line\n12 \n`)],
      [
        ['test/a.test.ts', { seconds: 3, lock: false }],
        ['test/b.test.ts', { seconds: 10, lock: true }],
      ],
    );
  });

  it('weighs the files that exist, and marks every file that starts a real-clone host', () => {
    assert.ok(committed.size > 300, `${committed.size} files weighed`);
    const gone = [...committed.keys()].filter((file) => !existsSync(join(repositoryRoot, file)));
    assert.deepEqual(gone, [], 'weighed files that no longer exist: refresh file-weights.txt');
    // A file that uses the real Linux driver's harnesses takes the lock; unmarked, it would wait
    // for the lock lane in a slot of the other lane.
    const lockHelpers = /from '.*\/(hostd-controlplane|real-driver-file)\.js'/;
    const unmarked = suiteFiles().filter((file) => {
      const source = readFileSync(join(repositoryRoot, file), 'utf8');
      const usesClones =
        lockHelpers.test(source) && /startHostdControlplane|realLinuxDriverFile/.test(source);
      return usesClones && !committed.get(file)?.lock;
    });
    assert.deepEqual(unmarked, [], 'files that take the host lock but are not marked `lock`');
  });

  it('runs as run-tests.sh calls it, and refuses anything else', () => {
    const lane = (flag: string) =>
      spawnSync(process.execPath, [script, flag], {
        input: 'test/none-a.test.ts\ntest/none-b.test.ts\n',
        encoding: 'utf8',
      });
    assert.equal(lane('--other-lane').stdout, 'test/none-a.test.ts\ntest/none-b.test.ts\n');
    assert.equal(lane('--lock-lane').stdout, '');
    const refused = lane('--sideways');
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /use --lock-lane or --other-lane/);
  });
});
