// artifacts.json and the signing keys are replaced whole: a reader that opened the old file (a
// backup copying a trace directory) still reads all of the old content, and a new open reads all
// of the new — never the truncated or half-written file an in-place write shows.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createArtifactFiles } from '../../../../controlplane/src/platform/store/artifact-files.js';
import { replaceFile } from '../../../../controlplane/src/platform/store/replace-file.js';

describe('replaceFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-replace-'));
  after(() => rm(dir, { recursive: true, force: true }));

  it('leaves a reader of the old file the whole old content, and the path the whole new one', async () => {
    const path = join(dir, 'artifacts.json');
    const old = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ name: `old-${i}` })));
    await writeFile(path, old);
    const reader = await open(path, 'r');
    try {
      await replaceFile(path, '[]');
      assert.equal(await reader.readFile('utf8'), old, 'the open reader saw the new write');
    } finally {
      await reader.close();
    }
    assert.equal(await readFile(path, 'utf8'), '[]');
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.deepEqual(await readdir(dir), ['artifacts.json'], 'no temporary file left');
  });

  it('keeps the old file when the new one cannot be written', async () => {
    const path = join(dir, 'keys.json');
    await writeFile(path, 'kept');
    await assert.rejects(replaceFile(join(dir, 'missing', 'keys.json'), 'new'));
    assert.equal(await readFile(path, 'utf8'), 'kept');
  });

  it("is how a task's artifact list is recorded", async () => {
    const files = createArtifactFiles(dir);
    await files.record('t1', []);
    const path = join(dir, 'traces', 't1', 'artifacts.json');
    const reader = await open(path, 'r');
    try {
      await files.record('t1', []);
      const { ino } = await reader.stat();
      assert.notEqual((await stat(path)).ino, ino, 'recorded in place');
    } finally {
      await reader.close();
    }
  });
});
