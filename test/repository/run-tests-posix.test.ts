// `npm test` on FreeBSD (issue 26): FreeBSD's base system has sh but no bash, and the bootstrap
// installs none, so test/run-tests.sh must be POSIX sh. Here it runs under dash (Debian's /bin/sh,
// which has no bash extensions; else /bin/sh) on two fixture test files, with its exit codes and
// its per-file time table; and nothing `npm test` starts names bash.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { repositoryRoot } from '../support/repository-root.js';

const root = repositoryRoot;
const shell = existsSync('/usr/bin/dash') ? '/usr/bin/dash' : '/bin/sh';

/** This process's environment without what node:test and the outer run set. */
function outerEnv(): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] != null),
  );
  for (const name of ['NODE_TEST_CONTEXT', 'CLAWDIE_TEST_SCOPE', 'CLAWDIE_TEST_TIMES']) {
    delete env[name];
  }
  return env;
}

function runner(...args: string[]) {
  return runnerWith({}, ...args);
}

function runnerWith(env: Record<string, string>, ...args: string[]) {
  return spawnSync(shell, ['test/run-tests.sh', ...args], {
    cwd: root,
    env: { ...outerEnv(), ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

describe(`test/run-tests.sh under ${shell}`, () => {
  const scratch = mkdtempSync(join(tmpdir(), 'clawdie-runner-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  mkdirSync(join(scratch, 'test'));
  const fixture = (name: string, body: string) => {
    const path = join(scratch, 'test', name);
    writeFileSync(
      path,
      `import assert from 'node:assert/strict';\nimport { it } from 'node:test';\n${body}\n`,
    );
    return path;
  };
  const passes = fixture('passes.test.ts', "it('passes', () => assert.ok(true));");
  const fails = fixture('fails.test.ts', "it('fails', () => assert.equal(1, 2));");
  const unit = fixture(
    'unit.test.ts',
    "it('unit', () => assert.equal(process.env.CLAWDIE_TEST_SCOPE, 'unit'));",
  );

  it('passes the parse check of the shell', () => {
    const result = spawnSync(shell, ['-n', join(root, 'test/run-tests.sh')], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
  });

  it('runs the given files, fails when one fails and prints the per-file table', () => {
    const result = runner(passes, fails);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /^run-tests: 2 test files$/m);
    assert.match(result.stdout, /# pass 1\n# fail 1/);
    assert.match(
      result.stderr,
      /per-file wall time \(2 of 2 files, [\d.]+ s in all\), slowest first:/,
    );
    assert.match(result.stderr, /^ +[\d.]+ s {2}test\/passes\.test\.ts$/m);
    assert.match(result.stderr, /^ +[\d.]+ s {2}test\/fails\.test\.ts$/m);
    assert.equal(runner(passes).status, 0);
  });

  it('--unit sets CLAWDIE_TEST_SCOPE=unit for the test files', () => {
    assert.equal(runner('--unit', unit).status, 0);
    assert.equal(runner(unit).status, 1);
  });

  it('refuses an unknown option and a missing file with exit code 2', () => {
    const option = runner('--fast');
    assert.equal(option.status, 2);
    assert.match(option.stderr, /unknown option --fast/);
    const missing = runner(join(scratch, 'test', 'absent.test.ts'));
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /no such test file/);
  });

  it('runs CLAWDIE_TEST_CONCURRENCY files at once, and refuses one that is not a count', () => {
    assert.equal(runnerWith({ CLAWDIE_TEST_CONCURRENCY: '1' }, passes).status, 0);
    for (const bad of ['0', 'three', '-1', '']) {
      const result = runnerWith({ CLAWDIE_TEST_CONCURRENCY: bad }, passes);
      assert.equal(result.status, bad === '' ? 0 : 2, `${JSON.stringify(bad)}: ${result.stderr}`);
      if (bad !== '') assert.match(result.stderr, /CLAWDIE_TEST_CONCURRENCY=.*a whole number/);
    }
  });

  it('nothing npm test starts needs bash', () => {
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
    for (const name of ['test', 'test:unit', 'test:soak', 'check', 'lint']) {
      assert.doesNotMatch(scripts[name], /\bbash\b/, `npm run ${name}`);
    }
    const bashy = /#!\S*bash|env bash|spawn(Sync)?\('bash'|\['bash'/;
    const offenders = readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|mjs|sh)$/.test(file) && !file.endsWith('run-tests-posix.test.ts'))
      .filter((file) => bashy.test(readFileSync(join(root, 'test', file), 'utf8')));
    assert.deepEqual(offenders, []);
  });
});
