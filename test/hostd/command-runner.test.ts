// The CommandRunner contract against the real adapter (real programs) and the fake.
import { ExecFileRunner } from '../../hostd/src/runner/index.js';
import { RecordingRunner } from '../../hostd/src/runner/recording-runner.js';
import { commandRunnerContract } from './command-runner.contract.js';

commandRunnerContract('ExecFileRunner (real programs)', () => ({
  runner: new ExecFileRunner(),
  programs: {
    exitThree: ['/bin/sh', '-c', 'exit 3'],
    echoStdin: ['/bin/cat'],
    printEnv: ['/usr/bin/env'],
    slow: ['/bin/sleep', '60'],
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
  ]),
  programs: {
    exitThree: ['exit', '3'],
    echoStdin: ['cat'],
    printEnv: ['env'],
    slow: ['sleep', '60'],
    missing: ['not-scripted'],
  },
}));
