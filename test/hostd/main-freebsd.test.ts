// hostd's main.ts as a real process with the FreeBSD driver selected on a host that is not a
// prepared FreeBSD host (this one has no /sbin/zfs): it refuses to start, naming what is missing,
// instead of serving clones it cannot make.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { repositoryRoot } from '../support/repository-root.js';

const root = repositoryRoot;

describe('hostd main with the FreeBSD driver', () => {
  it('exits 1 naming what the host lacks when the FreeBSD host is not prepared', {
    skip: existsSync('/sbin/zfs') ? 'this host has /sbin/zfs' : false,
  }, async () => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'hostd/src/main.ts'],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          CLAWDIE_HOSTD_TOKEN: 'a-token-of-sixteen-chars',
          CLAWDIE_HOSTD_DRIVER: 'freebsd',
          CLAWDIE_HOSTD_PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const [code] = await once(child, 'exit');
    clearTimeout(timer);
    assert.equal(code, 1, stderr);
    assert.match(stderr, /hostd: the freebsd host is not prepared for clones:/);
    assert.match(stderr, /cannot run \/sbin\/zfs: .*ENOENT.*is this a FreeBSD host with ZFS\?/);
  });
});
