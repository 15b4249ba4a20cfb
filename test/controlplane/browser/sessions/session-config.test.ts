import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../../controlplane/src/config.js';

describe('CLAWDIE_SESSION_TTL_S', () => {
  it('defaults to 7 days and takes seconds within 60 s .. 365 days', () => {
    assert.equal(loadConfig({}).sessionTtlS, 7 * 86_400);
    assert.equal(loadConfig({ CLAWDIE_SESSION_TTL_S: '3600' }).sessionTtlS, 3600);
    assert.throws(() => loadConfig({ CLAWDIE_SESSION_TTL_S: '5' }), /CLAWDIE_SESSION_TTL_S/);
    assert.throws(() => loadConfig({ CLAWDIE_SESSION_TTL_S: 'soon' }), /CLAWDIE_SESSION_TTL_S/);
  });
});
