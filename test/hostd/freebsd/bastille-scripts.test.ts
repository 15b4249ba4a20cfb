// Bastille's own scripts accept the exact Bastille invocations `clawdie setup` plans: each one,
// taken from the FreeBSD setup steps, runs through bin/bastille and its subcommand script under
// /bin/sh with stubbed FreeBSD programs and must get past the script's option loop and operand
// checks (the traced marker after them) without a usage or "Unknown Option" error.
// Needs a fetched BastilleBSD/bastille snapshot (bastille-harness.ts) and root (to drop to an
// unprivileged user); without them the suite is skipped with the reason, also in CI, which has no
// snapshot.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { setupSteps } from '../../../setup/src/cli.js';
import {
  config,
  everythingMissing,
  prerequisitesMet,
  RecordingRunner,
} from '../../setup/setup-fixture.js';
import {
  BASTILLE_GIT,
  type BastilleRun,
  type BastilleSandbox,
  bastilleAvailable,
  createBastilleSandbox,
} from './bastille-harness.js';
import { SOURCES } from './grammar/sources.js';

const BASTILLE = '/usr/local/bin/bastille';

function missing(): string | false {
  if (!bastilleAvailable())
    return `no Bastille snapshot at ${BASTILLE_GIT} (set CLAWDIE_BASTILLE_GIT)`;
  if (process.getuid?.() !== 0) return 'needs root to run the scripts as an unprivileged user';
  if (spawnSync('setpriv', ['--version']).status !== 0) return 'setpriv(1) is missing';
  return false;
}

/** The trace line each script reaches only after its options and operand checks passed. */
const AFTER_PARSING: Record<string, RegExp> = {
  bootstrap: /^\+ validate_release$/m,
  create: /^\+ create_jail /m,
  start: /^\+ set_target /m,
  stop: /^\+ set_target /m,
  pkg: /^\+ set_target /m,
  cmd: /^\+ set_target /m,
};
const PARSE_ERROR = /Usage: bastille|Unknown Option|Invalid|may not|requires a value/;

async function plannedBastilleArgs(): Promise<string[][]> {
  const runner = new RecordingRunner([...prerequisitesMet, ...everythingMissing]);
  const setup = config('freebsd');
  const argvs: (readonly string[])[] = [];
  for (const step of setupSteps(setup)) {
    argvs.push(...(await step.check({ runner, config: setup })).plan.map((c) => c.argv));
  }
  argvs.push(...runner.calls.map((call) => call.argv));
  const unique = new Map(
    argvs.filter((argv) => argv[0] === BASTILLE).map((argv) => [argv.join(' '), argv.slice(1)]),
  );
  return [...unique.values()];
}

function assertParsed(args: readonly string[], run: BastilleRun): void {
  const shown = `bastille ${args.join(' ')} → exit ${run.status}\n${run.output}`;
  assert.doesNotMatch(run.output, PARSE_ERROR, shown);
  if (args[0] === '-v') {
    assert.equal(run.status, 0, shown);
    assert.match(run.output, /^\d+\.\d+\.\d+/m, shown);
    return;
  }
  const marker = AFTER_PARSING[args[0] ?? ''];
  assert.ok(marker, `no marker for bastille ${args[0]}`);
  assert.match(run.trace.join('\n'), marker, `${shown}\n(never got past argument parsing)`);
}

describe('Bastille scripts accept the setup plan', { skip: missing() }, () => {
  let sandbox: BastilleSandbox;
  before(() => {
    sandbox = createBastilleSandbox();
  });
  after(() => sandbox?.dispose());

  it('uses the Bastille commit the grammar table names', () => {
    assert.equal(sandbox.commit, SOURCES.bastille.commit, 'snapshot moved: re-read the scripts');
  });

  it('passes every Bastille invocation setup plans through Bastille’s own argument parsing', async () => {
    const invocations = await plannedBastilleArgs();
    const commands = new Set(invocations.map((args) => args[0]));
    for (const name of ['-v', 'bootstrap', 'create', 'start', 'stop', 'pkg', 'cmd']) {
      assert.ok(commands.has(name), `setup no longer runs bastille ${name}`);
    }
    for (const args of invocations) assertParsed(args, sandbox.run(args));
  });

  it('hands the package and npm commands to the running template exactly as planned', async () => {
    const invocations = await plannedBastilleArgs();
    const pkg = invocations.find((args) => args[0] === 'pkg');
    const cmd = invocations.find((args) => args[0] === 'cmd');
    assert.deepEqual(pkg?.slice(0, 3), ['pkg', '-y', 'browser']);
    assert.equal(cmd?.[1], 'browser');
    const jexec = (run: BastilleRun) => run.calls.filter((line) => line.startsWith('jexec '));
    assert.deepEqual(jexec(sandbox.run(pkg ?? [], { templateRunning: true })), [
      `jexec -l -U root browser env ASSUME_ALWAYS_YES=yes /usr/sbin/pkg ${pkg?.slice(3).join(' ')}`,
    ]);
    assert.deepEqual(jexec(sandbox.run(cmd ?? [], { templateRunning: true })), [
      `jexec -l -U root browser ${cmd?.slice(2).join(' ')}`,
    ]);
  });

  it('catches invocations Bastille rejects (the check is not vacuous)', () => {
    const cases: [string[], RegExp][] = [
      [['create', '-T', '-V', 'brow_ser', '14.3-RELEASE', 'SYNCDHCP', 'vtnet0'], /may not contain/],
      [['pkg', '-y', 'browser'], /Usage: bastille pkg/],
      [['start', '-z', 'browser'], /Unknown Option/],
      [['bootstrap', '14.3-RELEASES'], /Usage: bastille bootstrap/],
    ];
    for (const [args, error] of cases) {
      const run = sandbox.run(args);
      assert.match(run.output, error, `bastille ${args.join(' ')}:\n${run.output}`);
      assert.throws(() => assertParsed(args, run));
    }
  });
});
