// Runs `clawdie setup --verify-host` in-process and captures its output and exit code.
import { mock } from 'node:test';
import { main } from '../../../setup/src/cli.js';
import { RecordingRunner } from '../setup-fixture.js';

export async function runVerify(deps: Partial<Parameters<typeof main>[1]>) {
  const lines: string[] = [];
  const log = mock.method(console, 'log', (line: string) => lines.push(line));
  const error = mock.method(console, 'error', (line: string) => lines.push(line));
  try {
    const code = await main(['--verify-host'], {
      env: {},
      platform: process.platform,
      runner: new RecordingRunner(),
      repoRoot: '/opt/clawdie',
      ...deps,
    });
    return { code, text: lines.join('\n') };
  } finally {
    log.mock.restore();
    error.mock.restore();
  }
}
