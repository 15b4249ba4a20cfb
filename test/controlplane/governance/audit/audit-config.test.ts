import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../../controlplane/src/config.js';

describe('audit and auth-failure configuration', () => {
  it('keeps the audit key under the data dir and limits auth failures by default', () => {
    const config = loadConfig({ CLAWDIE_DATA_DIR: '/srv/clawdie' });
    assert.equal(config.auditKeyFile, '/srv/clawdie/keys/audit.key');
    assert.deepEqual(config.authFailures, { limit: 30, windowMs: 60_000 });
  });

  it('takes CLAWDIE_AUDIT_KEY_FILE and the failure limit and window, refusing nonsense', () => {
    const config = loadConfig(
      {
        CLAWDIE_AUDIT_KEY_FILE: 'keys/a.key',
        CLAWDIE_AUTH_FAILURE_LIMIT: '5',
        CLAWDIE_AUTH_FAILURE_WINDOW_S: '10',
      },
      '/etc/clawdie',
    );
    assert.equal(config.auditKeyFile, '/etc/clawdie/keys/a.key');
    assert.deepEqual(config.authFailures, { limit: 5, windowMs: 10_000 });
    assert.throws(
      () => loadConfig({ CLAWDIE_AUTH_FAILURE_LIMIT: '0' }),
      /CLAWDIE_AUTH_FAILURE_LIMIT/,
    );
  });
});
