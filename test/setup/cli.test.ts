// The setup CLI entry: flag parsing, configuration errors and exit codes.
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { main } from '../../setup/src/cli.js';
import { loadSetupConfig } from '../../setup/src/config.js';
import { everythingMissing, linuxPrerequisitesMet, RecordingRunner } from './setup-fixture.js';

function quietly<T>(run: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const lines: string[] = [];
  const log = mock.method(console, 'log', (line: string) => lines.push(line));
  const error = mock.method(console, 'error', (line: string) => lines.push(line));
  return run().then(
    (value) => {
      log.mock.restore();
      error.mock.restore();
      return { value, lines };
    },
    (failure: unknown) => {
      log.mock.restore();
      error.mock.restore();
      throw failure;
    },
  );
}

const deps = (runner: RecordingRunner) => ({
  env: {},
  platform: 'linux',
  runner,
  repoRoot: '/opt/clawdie',
});

describe('clawdie setup CLI', () => {
  it('prints usage for --help and exits 0 without running anything', async () => {
    const runner = new RecordingRunner();
    const { value, lines } = await quietly(() => main(['--help'], deps(runner)));
    assert.equal(value, 0);
    assert.match(lines.join('\n'), /Usage: clawdie setup/);
    assert.deepEqual(runner.calls, []);
  });

  it('exits 2 on an unknown OS, naming the variable and the flag', async () => {
    const { value, lines } = await quietly(() =>
      main(['--os', 'plan9'], deps(new RecordingRunner())),
    );
    assert.equal(value, 2);
    assert.match(lines.join('\n'), /CLAWDIE_SETUP_OS must be freebsd or linux.*--os/);
  });

  it('dry-runs the Linux plan and exits 0', async () => {
    const runner = new RecordingRunner([...linuxPrerequisitesMet, ...everythingMissing]);
    const { value, lines } = await quietly(() => main(['setup', '--dry-run'], deps(runner)));
    assert.equal(value, 0);
    assert.ok(
      lines.includes('/usr/bin/install -d -m 0755 /var/lib/clawdie/template-profile/chromium'),
    );
    assert.match(lines.at(-1) ?? '', /^setup ok: 4 already done, 2 would run/);
  });

  it('merges defaults < environment < flags', () => {
    const config = loadSetupConfig(
      { CLAWDIE_SETUP_RELEASE: '14.2-RELEASE', CLAWDIE_SETUP_INTERFACE: 'em0' },
      { interface: 'igb0' },
      'freebsd',
      '/repo',
    );
    assert.equal(config.os, 'freebsd');
    assert.equal(config.freebsd.release, '14.2-RELEASE');
    assert.equal(config.freebsd.networkInterface, 'igb0');
    assert.equal(config.freebsd.jailServiceSource, '/repo/jail-service');
    assert.throws(() => loadSetupConfig({}, { generation: 'v1' }, 'linux', '/repo'), /g0001/);
  });
});
