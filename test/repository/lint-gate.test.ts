// `npm test` on FreeBSD (issue 26): Biome has no FreeBSD binary, so the lint step of `npm run
// check` (test/lint.mjs) skips there with the reason on stderr instead of failing the whole run,
// and runs Biome unchanged where Biome has a binary. The FreeBSD branch runs here on Linux: the
// decision takes the platform as an argument, and the real script runs with process.platform
// replaced by a preload.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BIOME_ARGS, biomePlatformPackages, lintDecision } from '../lint.mjs';
import { repositoryRoot } from '../support/repository-root.js';

const root = repositoryRoot;
const script = join(root, 'test', 'lint.mjs');
const biomePackages = biomePlatformPackages();
const FREEBSD_REASON =
  'lint skipped: Biome has no FreeBSD build; run `npm run lint` on Linux/macOS';

function decide(platform: string, arch: string, env: Record<string, string> = {}) {
  return lintDecision({ platform, arch, env, biomePackages });
}

/** Runs test/lint.mjs as `npm run check` does, with process.platform set to `platform`. */
function runLint(platform: string, args: string[] = [], env: Record<string, string> = {}) {
  const preload = `data:text/javascript,Object.defineProperty(process,'platform',{value:'${platform}'})`;
  return spawnSync(process.execPath, ['--import', preload, script, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('lint step of npm run check', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'clawdie-lint-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('skips on FreeBSD (no Biome build) and runs where Biome ships one', () => {
    assert.deepEqual(decide('freebsd', 'x64'), { action: 'skip', reason: FREEBSD_REASON });
    assert.deepEqual(decide('freebsd', 'arm64'), { action: 'skip', reason: FREEBSD_REASON });
    for (const [platform, arch] of [
      ['linux', 'x64'],
      ['linux', 'arm64'],
      ['darwin', 'arm64'],
      ['win32', 'x64'],
    ] as const) {
      assert.deepEqual(decide(platform, arch), { action: 'run' }, `${platform} ${arch}`);
    }
    assert.match(
      (decide('linux', 'riscv64') as { reason: string }).reason,
      /^lint skipped: Biome has no Linux riscv64 build;/,
    );
    assert.deepEqual(decide('freebsd', 'x64', { BIOME_BINARY: '/opt/biome' }), { action: 'run' });
  });

  it('on FreeBSD the script prints the reason, runs no Biome and lets the run go on', () => {
    const result = runLint('freebsd');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, `${FREEBSD_REASON}\n`);
    assert.equal(result.stdout, '');
    const strict = runLint('freebsd', ['--no-skip']);
    assert.equal(strict.status, 1, 'npm run lint must fail where it cannot lint');
    assert.equal(strict.stderr, `${FREEBSD_REASON}\n`);
  });

  it('on Linux it runs biome ci through Biome`s own launcher and passes its failure on', () => {
    const fake = join(scratch, 'biome');
    const argsFile = join(scratch, 'args');
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\nexit 3\n`);
    chmodSync(fake, 0o755);
    const result = runLint('linux', [], { BIOME_BINARY: fake });
    assert.equal(result.status, 3, result.stderr);
    assert.deepEqual(readFileSync(argsFile, 'utf8').trim().split('\n'), BIOME_ARGS);
    assert.deepEqual(BIOME_ARGS, ['ci', '--error-on-warnings', '.']);
  });

  it('npm run check lints through the script, so FreeBSD reaches the typecheck and tests', () => {
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
    assert.match(scripts.check, /^node test\/lint\.mjs && tsc /);
    assert.equal(scripts.lint, 'node test/lint.mjs --no-skip');
  });
});
