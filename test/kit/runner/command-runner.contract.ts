// The contract of the one CommandRunner port (@clawdie/kit/runner), used by hostd's
// drivers, setup and the jail-service's desktop surface, run against every implementation: the
// real ExecFileRunner and the RecordingRunner fake.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommandRunner } from '@clawdie/kit/runner';

/** argv of a program with each behaviour, in the implementation's own terms. */
export interface ContractPrograms {
  /** Exits with code 3, writing nothing. */
  exitThree: readonly string[];
  /** Copies stdin to stdout. */
  echoStdin: readonly string[];
  /** Prints its environment, one `NAME=value` per line. */
  printEnv: readonly string[];
  /** Runs for a minute. */
  slow: readonly string[];
  /** Writes the three bytes ff 00 80 (not valid UTF-8) to stdout: an image, for instance. */
  printBytes: readonly string[];
  /** A program that does not exist. */
  missing: readonly string[];
}

export function commandRunnerContract(
  name: string,
  make: () => { runner: CommandRunner; programs: ContractPrograms },
): void {
  describe(`CommandRunner contract: ${name}`, () => {
    it('resolves on a non-zero exit code (a value, not an exception)', async () => {
      const { runner, programs } = make();
      const result = await runner.run(programs.exitThree, { timeoutMs: 10_000 });
      assert.equal(result.exitCode, 3);
      assert.ok(result.durationMs >= 0);
    });

    it('writes stdin to the program and returns its stdout as text', async () => {
      const { runner, programs } = make();
      const stdin = 'line one\nlíne twö\n';
      const result = await runner.run(programs.echoStdin, { timeoutMs: 10_000, stdin });
      assert.equal(result.exitCode, 0);
      assert.equal(result.stdout, stdin);
      if (result.stdoutBytes) assert.equal(result.stdoutBytes.toString('utf8'), stdin);
    });

    it('keeps binary stdout byte for byte (the desktop decodes xwd images from it)', async () => {
      const { runner, programs } = make();
      const result = await runner.run(programs.printBytes, { timeoutMs: 10_000 });
      assert.equal(result.exitCode, 0);
      assert.ok(result.stdoutBytes, 'stdoutBytes is set for binary output');
      assert.deepEqual([...result.stdoutBytes], [0xff, 0x00, 0x80]);
    });

    it('gives the program exactly the environment passed, nothing inherited', async () => {
      const { runner, programs } = make();
      const env = { PATH: '/usr/bin:/bin', CLAWDIE_CONTRACT: 'yes' };
      const result = await runner.run(programs.printEnv, { timeoutMs: 10_000, env });
      const names = result.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('=')[0]);
      assert.deepEqual(names.sort(), ['CLAWDIE_CONTRACT', 'PATH']);
    });

    it('rejects with COMMAND_SPAWN_FAILED when the program cannot start', async () => {
      const { runner, programs } = make();
      await assert.rejects(runner.run(programs.missing, { timeoutMs: 10_000 }), {
        code: 'COMMAND_SPAWN_FAILED',
      });
    });

    it('rejects with COMMAND_TIMEOUT once timeoutMs passes', async () => {
      const { runner, programs } = make();
      const started = performance.now();
      await assert.rejects(runner.run(programs.slow, { timeoutMs: 100 }), {
        code: 'COMMAND_TIMEOUT',
      });
      assert.ok(performance.now() - started < 5000, 'the slow program was stopped');
    });

    it('rejects with COMMAND_ABORTED on abort, during the run or before it', async () => {
      const { runner, programs } = make();
      const controller = new AbortController();
      const running = runner.run(programs.slow, { timeoutMs: 60_000, signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await assert.rejects(running, { code: 'COMMAND_ABORTED' });
      await assert.rejects(
        runner.run(programs.exitThree, { timeoutMs: 10_000, signal: AbortSignal.abort() }),
        { code: 'COMMAND_ABORTED' },
      );
    });
  });
}
