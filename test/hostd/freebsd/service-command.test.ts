// The jail-service command the FreeBSD driver writes into jail.conf passes only variables the
// jail-service reads (a misspelt one would be silently ignored inside the jail: e.g. a proxy
// variable under the wrong name leaves Chromium without hostd's egress proxy).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultFreeBsdLayout, taskNames } from '../../../hostd/src/drivers/freebsd/names.js';
import { serviceCommand } from '../../../hostd/src/drivers/freebsd/render.js';
import { parseServiceCommand } from './fake/jail-service-processes.js';

describe('FreeBSD jail-service command', () => {
  it('gives the jail-service exactly the variables it reads, the proxy included', () => {
    const names = taskNames(7, defaultFreeBsdLayout);
    const command = serviceCommand(names, defaultFreeBsdLayout, 'http://10.78.0.29:3128');
    assert.deepEqual(parseServiceCommand(command), {
      HOME: '/tmp/home',
      CLAWDIE_JAIL_HOST: '10.78.0.30',
      CLAWDIE_JAIL_PORT: '9223',
      CLAWDIE_JAIL_TOKEN_FILE: '/usr/local/etc/clawdie/jail.token',
      CLAWDIE_CHROMIUM_PATH: '/usr/local/bin/chrome',
      CLAWDIE_JAIL_PROXY: 'http://10.78.0.29:3128',
    });
  });

  it('the fake jail refuses a variable the jail-service does not read', () => {
    const command =
      '/usr/sbin/daemon -u clawdie /usr/bin/env CLAWDIE_JAIL_PROXY_URL=http://10.78.0.29:3128 /usr/local/bin/node /x/main.js';
    assert.equal(
      parseServiceCommand(command),
      'exec.start: the jail-service reads no CLAWDIE_JAIL_PROXY_URL',
    );
  });
});
