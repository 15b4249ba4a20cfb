import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../../controlplane/src/config.js';

describe('CLAWDIE_EGRESS_ALLOW_INTERNAL (exceptions for the embedded hostd’s clones)', () => {
  it('is empty by default: clones reach no host service', () => {
    assert.deepEqual(loadConfig({}).egressAllowInternal, []);
  });

  it('takes exact address:port entries and refuses anything broader', () => {
    assert.deepEqual(
      loadConfig({ CLAWDIE_EGRESS_ALLOW_INTERNAL: '127.0.0.1:41234,[::1]:8080' })
        .egressAllowInternal,
      ['127.0.0.1:41234', '[::1]:8080'],
    );
    for (const bad of ['127.0.0.1', 'localhost:8700', '127.0.0.0/8:80', '127.0.0.1:0'])
      assert.throws(
        () => loadConfig({ CLAWDIE_EGRESS_ALLOW_INTERNAL: bad }),
        /CLAWDIE_EGRESS_ALLOW_INTERNAL: must be comma-separated exact address:port/,
        bad,
      );
  });
});
