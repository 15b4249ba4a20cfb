// The CommandRunner contract (@clawdie/kit/runner) against the real adapter (real programs) and the fake.
import { ExecFileRunner } from '@clawdie/kit/runner';
import { RecordingRunner } from '../../support/recording-runner.js';
import { commandRunnerContract } from './command-runner.contract.js';

commandRunnerContract('ExecFileRunner (real programs)', () => ({
  runner: new ExecFileRunner(),
  programs: {
    exitThree: ['/bin/sh', '-c', 'exit 3'],
    echoStdin: ['/bin/cat'],
    printEnv: ['/usr/bin/env'],
    slow: ['/bin/sleep', '60'],
    printBytes: ['/usr/bin/printf', '\\377\\000\\200'],
    missing: ['/nonexistent/clawdie-contract-program'],
  },
}));

commandRunnerContract('RecordingRunner (fake)', () => ({
  runner: new RecordingRunner([
    { match: 'exit 3', reply: { exitCode: 3 } },
    {
      match: 'cat',
      reply: (_argv, options) => ({
        exitCode: 0,
        stdout: options.stdin ?? '',
        stderr: '',
        durationMs: 0,
      }),
    },
    {
      match: 'env',
      reply: (_argv, options) => ({
        exitCode: 0,
        stdout: Object.entries(options.env ?? { PATH: '/bin' })
          .map(([key, value]) => `${key}=${value}\n`)
          .join(''),
        stderr: '',
        durationMs: 0,
      }),
    },
    { match: 'sleep 60', reply: {}, delayMs: 60_000 },
    { match: 'bytes', reply: { stdoutBytes: Buffer.from([0xff, 0x00, 0x80]) } },
  ]),
  programs: {
    exitThree: ['exit', '3'],
    echoStdin: ['cat'],
    printEnv: ['env'],
    slow: ['sleep', '60'],
    printBytes: ['bytes'],
    missing: ['not-scripted'],
  },
}));
