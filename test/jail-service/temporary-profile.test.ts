import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import {
  createTemporaryProfile,
  removeStaleProfiles,
} from '../../jail-service/src/browser/temporary-profile.js';

describe('temporary Chromium profiles', () => {
  it('removes profiles left by a dead jail-service and keeps live ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const stale = join(dir, `clawdie-jail-profile-${dead}-abc123`);
    const live = join(dir, `clawdie-jail-profile-${process.pid}-def456`);
    const other = join(dir, 'someone-elses-dir');
    for (const path of [stale, live, other]) mkdirSync(path);
    assert.deepEqual(await removeStaleProfiles(dir), [stale]);
    assert.equal(existsSync(stale), false);
    assert.equal(existsSync(live), true);
    assert.equal(existsSync(other), true);
  });

  it('names a new profile after the owning process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'));
    const profile = await createTemporaryProfile(dir);
    assert.match(basename(profile), new RegExp(`^clawdie-jail-profile-${process.pid}-`));
  });
});
