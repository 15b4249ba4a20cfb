// The CLI's commands declare their own flags: the usage is generated from the declarations, a
// flag a command does not declare is refused, help goes to stdout (exit 0), errors to stderr (2).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { commands, parseCommand, usage } from '../../../../controlplane/src/ingress/cli/args.js';
import type { CliCommand } from '../../../../controlplane/src/ingress/cli/command-spec.js';
import { UsageError } from '../../../../controlplane/src/ingress/cli/usage-error.js';
import { commandUsage, synopsis } from '../../../../controlplane/src/ingress/cli/usage-text.js';
import { runClawdie } from '../../../support/clawdie-cli.js';

const name = (command: CliCommand) => command.words.join(' ');
/** A command line that is complete but for flags: its words and a value per positional. */
const base = (command: CliCommand) => [...command.words, ...command.positionals.map(() => 'x')];
const everyFlag = new Map(
  commands.flatMap((command) => Object.entries(command.flags).map(([flag, spec]) => [flag, spec])),
);

describe('clawdie usage and flags, from the command declarations', () => {
  it('lists every command with every flag it declares, and each flag in its own help', () => {
    for (const command of commands) {
      const lines = synopsis(command).join('\n');
      assert.ok(usage.includes(`${lines}\n      ${command.summary}`), name(command));
      const help = commandUsage(command);
      for (const [flag, spec] of Object.entries(command.flags)) {
        assert.match(lines, new RegExp(`--${flag}\\b`), `${name(command)} --${flag}`);
        assert.ok(help.includes(`--${flag}`) && help.includes(spec.description), flag);
      }
      for (const positional of command.positionals) assert.ok(lines.includes(positional.name));
    }
    assert.ok(everyFlag.size >= 13, `flags declared: ${[...everyFlag.keys()].join(' ')}`);
    assert.match(usage, /^environment: CLAWDIE_MODEL_URL/m);
  });

  it('refuses, in every command, each flag that only other commands declare', () => {
    let refused = 0;
    for (const command of commands) {
      for (const [flag, spec] of everyFlag) {
        if (flag in command.flags) continue;
        const argv = [...base(command), `--${flag}`, ...(spec.type === 'boolean' ? [] : ['3'])];
        assert.throws(
          () => parseCommand(argv),
          (error) =>
            error instanceof UsageError &&
            error.where === `clawdie ${name(command)}` &&
            error.message === `unknown option --${flag}` &&
            error.usage === commandUsage(command),
          argv.join(' '),
        );
        refused += 1;
      }
    }
    assert.ok(refused > 100, `refused ${refused}`);
  });

  it('refuses positionals a command does not take, and answers help for a command or family', () => {
    assert.throws(() => parseCommand(['demo', 'extra']), /unexpected argument "extra"/);
    assert.throws(() => parseCommand(['keys', 'rotate', 'now']), /unexpected argument "now"/);
    const run = commands.find((command) => name(command) === 'run');
    assert.ok(run);
    for (const argv of [
      ['run', '--help'],
      ['run', '-h'],
      ['help', 'run'],
    ])
      assert.deepEqual(parseCommand(argv), { name: 'help', text: commandUsage(run) });
    for (const argv of [[], ['help'], ['--help']])
      assert.deepEqual(parseCommand(argv), { name: 'help', text: usage });
    const family = parseCommand(['session', '--help']);
    assert.ok(
      family.name === 'help' &&
        /session list[\s\S]*session save[\s\S]*session revoke/.test(family.text),
    );
  });

  it('as a real process: help on stdout with exit 0, refusals on stderr with exit 2', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-cli-usage-'));
    const env = { CLAWDIE_DATA_DIR: join(dataDir, 'data') };
    const [help, runHelp, audit, backup, unknown] = await Promise.all([
      runClawdie(['help'], env),
      runClawdie(['run', '--help'], env),
      runClawdie(['audit', 'verify', '--tenant', 'x'], env),
      runClawdie(['backup', join(dataDir, 'backup'), '--keep', '3'], env),
      runClawdie(['nope'], env),
    ]);
    assert.deepEqual([help.code, help.stdout, help.stderr], [0, `${usage}\n`, '']);
    assert.equal(runHelp.code, 0, runHelp.stderr);
    assert.equal(runHelp.stderr, '');
    for (const flag of [
      '--start-url URL',
      '--max-steps N',
      '--timeout SECONDS',
      '--tenant T',
      '--json',
    ])
      assert.ok(runHelp.stdout.includes(flag), flag);
    for (const [run, message] of [
      [audit, 'clawdie audit verify: unknown option --tenant'],
      [backup, 'clawdie backup: unknown option --keep'],
      [unknown, 'clawdie: unknown command "nope"'],
    ] as const) {
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, '');
      assert.ok(run.stderr.startsWith(`${message}\n\nusage:\n`), run.stderr);
    }
    assert.ok(unknown.stderr.includes(usage));
  });
});
