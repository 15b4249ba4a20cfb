// A FreeBSD desktop jail starts Xvfb under daemon(8) and the jail-service right after it, so the
// service may ask for the display before the server accepts connections: the desktop driver
// retries a display it cannot open yet, within a bound, and still fails on one that never comes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommandRunner, RunResult } from '@clawdie/kit/runner';
import { createDesktopDriver } from '../../../jail-service/src/desktop/desktop-driver.js';
import { BrowserUnavailableError } from '../../../jail-service/src/errors.js';
import { testImages } from '../../support/test-images.js';

/** `xdotool getdisplaygeometry` that cannot open the display for the first `misses` calls. */
function lateDisplay(misses: number) {
  let calls = 0;
  const runner: CommandRunner = {
    async run(): Promise<RunResult> {
      calls += 1;
      if (calls <= misses) {
        return {
          exitCode: 1,
          stdout: '',
          stderr: "Error: Can't open display: :0\nFailed creating new xdo instance\n",
          durationMs: 1,
        };
      }
      return { exitCode: 0, stdout: '1280 800\n', stderr: '', durationMs: 1 };
    },
  };
  return { runner, calls: () => calls };
}

describe('desktop driver: a display that comes up late', () => {
  it('waits for the display to accept connections, then reads its size', async () => {
    const late = lateDisplay(3);
    const driver = await createDesktopDriver({
      display: ':0',
      codec: testImages,
      runner: late.runner,
      commandTimeoutMs: 1000,
      waitForDisplayMs: 5000,
    });
    assert.equal(late.calls(), 4);
    assert.deepEqual(driver.viewport(), { width: 1280, height: 800, deviceScaleFactor: 1 });
  });

  it('fails at once without a wait, and after the wait on a display that never comes', async () => {
    await assert.rejects(
      createDesktopDriver({
        display: ':0',
        codec: testImages,
        runner: lateDisplay(1).runner,
        commandTimeoutMs: 1000,
      }),
      BrowserUnavailableError,
    );
    const never = lateDisplay(Number.POSITIVE_INFINITY);
    const started = Date.now();
    await assert.rejects(
      createDesktopDriver({
        display: ':0',
        codec: testImages,
        runner: never.runner,
        commandTimeoutMs: 1000,
        waitForDisplayMs: 300,
      }),
      BrowserUnavailableError,
    );
    assert.ok(Date.now() - started >= 300);
    assert.ok(never.calls() >= 3 && never.calls() <= 6, `${never.calls()} tries`);
  });
});
