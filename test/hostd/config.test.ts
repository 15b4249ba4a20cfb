import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../hostd/src/config.js';

const token = { CLAWDIE_HOSTD_TOKEN: 'a-token-of-sixteen-chars' };

describe('hostd config: CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL', () => {
  it('is empty by default: no clone reaches any host-internal address', () => {
    assert.deepEqual(loadConfig(token).egressAllowInternal, []);
  });

  it('takes exact address:port entries only', () => {
    const config = loadConfig({
      ...token,
      CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL: '127.0.0.1:41234, [::1]:8080',
    });
    assert.deepEqual(config.egressAllowInternal, ['127.0.0.1:41234', '[::1]:8080']);
    for (const bad of ['127.0.0.1', 'localhost:80', '127.0.0.1:0', '10.0.0.0/8:80', '*:80'])
      assert.throws(
        () => loadConfig({ ...token, CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL: bad }),
        /CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL: must be comma-separated exact address:port/,
        bad,
      );
  });
});
