import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { createTemporaryDir, removeStaleDirs } from '../../jail-service/src/temporary-dirs.js';

describe("the jail-service's temporary directories", () => {
  it('removes every kind left by a dead jail-service and keeps live ones and others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const stale = ['profile', 'downloads', 'uploads'].map((kind) =>
      join(dir, `clawdie-jail-${kind}-${dead}-abc123`),
    );
    const live = join(dir, `clawdie-jail-downloads-${process.pid}-def456`);
    const others = [
      join(dir, 'someone-elses-dir'),
      join(dir, `clawdie-jail-cache-${dead}-x`),
      join(dir, `clawdie-jail-profile-${dead}`),
    ];
    for (const path of [...stale, live, ...others]) mkdirSync(path);
    assert.deepEqual((await removeStaleDirs(dir)).sort(), [...stale].sort());
    for (const path of stale) assert.equal(existsSync(path), false, path);
    for (const path of [live, ...others]) assert.equal(existsSync(path), true, path);
  });

  it('names a new directory after its kind and the owning process, after the sweep', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    mkdirSync(join(dir, `clawdie-jail-uploads-${dead}-old`));
    const made = await createTemporaryDir('uploads', dir);
    assert.match(basename(made), new RegExp(`^clawdie-jail-uploads-${process.pid}-`));
    assert.equal(existsSync(join(dir, `clawdie-jail-uploads-${dead}-old`)), false);
  });

  it('sweeps a directory once per process, however many it makes there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const first = join(dir, `clawdie-jail-profile-${dead}-a`);
    mkdirSync(first);
    await Promise.all([
      createTemporaryDir('profile', dir),
      createTemporaryDir('downloads', dir),
      createTemporaryDir('uploads', dir),
    ]);
    assert.equal(existsSync(first), false);
    // Left after this process's sweep: the next process's sweep takes it.
    const later = join(dir, `clawdie-jail-profile-${dead}-b`);
    mkdirSync(later);
    await createTemporaryDir('uploads', dir);
    assert.equal(existsSync(later), true);
    assert.deepEqual(await removeStaleDirs(dir), [later]);
  });
});
