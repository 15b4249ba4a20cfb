// The fake FreeBSD host's desktop jail runs a REAL Xvfb for the jail's exec.start: its display
// word is mapped to a free display here, every other word reaches the real server, so a word the
// real Xvfb rejects gives its real exit code (1) and no display, as in the jail.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { requires } from '../../support/capabilities.js';
import { startJailXvfb, xvfbArguments } from './fake/jail-xvfb.js';

const stop = async (xvfb: ReturnType<typeof startJailXvfb>) => {
  if (xvfb.child.exitCode === null && xvfb.child.pid) process.kill(-xvfb.child.pid, 'SIGTERM');
  await xvfb.exited;
};

describe('fake FreeBSD jail: Xvfb', () => {
  it('reads the Xvfb words of a daemon(8) exec.start command', () => {
    assert.deepEqual(
      xvfbArguments(
        '/usr/sbin/daemon -u clawdie -P /var/run/xvfb.pid -o /var/log/xvfb.log /usr/local/bin/Xvfb :0 -screen 0 1280x800x24 -nolisten tcp -noreset',
      ),
      [':0', '-screen', '0', '1280x800x24', '-nolisten', 'tcp', '-noreset'],
    );
    assert.equal(xvfbArguments('/usr/sbin/daemon -u clawdie /usr/bin/env A=1 /x'), null);
  });

  it(
    'serves the jail display on a real X server with the screen asked for',
    requires('x11'),
    async () => {
      const xvfb = startJailXvfb([
        ':0',
        '-screen',
        '0',
        '640x480x24',
        '-nolisten',
        'tcp',
        '-noreset',
      ]);
      try {
        const display = await xvfb.ready;
        assert.match(display ?? '', /^:\d+$/);
        assert.equal(xvfb.jailDisplay, ':0');
        const geometry = execFileSync('xdotool', ['getdisplaygeometry'], {
          env: { DISPLAY: display ?? '' },
          encoding: 'utf8',
        });
        assert.equal(geometry.trim(), '640 480');
      } finally {
        await stop(xvfb);
      }
    },
  );

  it('exits 1 with no display on a word the real Xvfb rejects', requires('x11'), async () => {
    const xvfb = startJailXvfb([':0', '-screen', '0', '640x480', '-nolisten', 'tcp']);
    assert.equal(await xvfb.ready, null);
    await xvfb.exited;
    assert.equal(xvfb.exitCode(), 1);
  });
});
