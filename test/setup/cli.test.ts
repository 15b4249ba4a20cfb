// The setup CLI entry: flag parsing, configuration errors and exit codes.
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { main } from '../../setup/src/cli.js';
import { loadSetupConfig } from '../../setup/src/config.js';
import { USAGE } from '../../setup/src/setup-args.js';
import { setupFlags, verifyHostFlag } from '../../setup/src/setup-flags.js';
import { everythingMissing, linuxPrerequisitesMet, RecordingRunner } from './setup-fixture.js';

/** Runs `run` with console output captured: `lines` both streams, `stderr` console.error's. */
function quietly<T>(
  run: () => Promise<T>,
): Promise<{ value: T; lines: string[]; stdout: string[]; stderr: string[] }> {
  const lines: string[] = [];
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = mock.method(console, 'log', (line: string) => lines.push(line) && stdout.push(line));
  const error = mock.method(
    console,
    'error',
    (line: string) => lines.push(line) && stderr.push(line),
  );
  return run().then(
    (value) => {
      log.mock.restore();
      error.mock.restore();
      return { value, lines, stdout, stderr };
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
    const { value, stdout, stderr } = await quietly(() => main(['--help'], deps(runner)));
    assert.equal(value, 0);
    assert.deepEqual([stdout, stderr], [[USAGE], []]);
    assert.match(USAGE, /^Usage: clawdie setup/);
    assert.deepEqual(runner.calls, []);
  });

  it('generates the usage from the declared flags: each with its value name and description', () => {
    for (const [name, spec] of Object.entries({ ...setupFlags, 'verify-host': verifyHostFlag })) {
      const value = 'value' in spec ? ` ${spec.value}` : '';
      const at = USAGE.indexOf(`  --${name}${value} `);
      assert.ok(at >= 0, name);
      const entry = USAGE.slice(at).replace(/\s+/g, ' ');
      assert.ok(entry.includes(spec.description), name);
      if ('os' in spec) assert.ok(entry.includes(`${spec.description} [${spec.os} only]`), name);
    }
  });

  it('refuses, on stderr with exit 2, a flag the chosen mode or OS would ignore', async () => {
    for (const [args, message] of [
      [['--verify-host', '--dry-run'], '--verify-host takes no other option (got --dry-run)'],
      [['--verify-host', '--os', 'linux'], '--verify-host takes no other option (got --os)'],
      [['--os', 'linux', '--release', '14.2-RELEASE', '--dry-run'], '--release applies to freebsd'],
      [['--os', 'linux', '--generation', 'g0002', '--dry-run'], '--generation applies to freebsd'],
      [['--os', 'freebsd', '--profile-dir', '/p', '--dry-run'], '--profile-dir applies to linux'],
      [['--dry-run', '--tenant', 'x'], 'unknown option --tenant'],
    ] as const) {
      const runner = new RecordingRunner();
      const { value, stdout, stderr } = await quietly(() => main(args, deps(runner)));
      assert.equal(value, 2, args.join(' '));
      assert.deepEqual(stdout, []);
      assert.ok(stderr.join('\n').startsWith(`clawdie setup: ${message}`), stderr.join('\n'));
      assert.deepEqual(runner.calls, [], 'nothing runs, not even --verify-host');
    }
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
    assert.match(lines.at(-1) ?? '', /^setup ok: 5 already done, 2 would run/);
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
