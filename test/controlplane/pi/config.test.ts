import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultControlplaneUrl, loadConfig } from '../../../controlplane/pi-extension/config.js';

const noFiles = (path: string): string => {
  throw new Error(`unexpected read of ${path}`);
};

describe('pi extension loadConfig', () => {
  it('defaults to the local controlplane without a token', () => {
    assert.deepEqual(loadConfig({}, {}, noFiles), { url: defaultControlplaneUrl, token: null });
    assert.equal(defaultControlplaneUrl, 'http://127.0.0.1:8700');
  });

  it('takes the environment, and flags over the environment', () => {
    const env = { CLAWDIE_URL: 'https://cp.example.org/', CLAWDIE_TOKEN: 'env-token' };
    assert.deepEqual(loadConfig(env, {}, noFiles), {
      url: 'https://cp.example.org',
      token: 'env-token',
    });
    assert.deepEqual(
      loadConfig(env, { url: 'http://10.0.0.2:9000', token: 'flag-token' }, noFiles),
      { url: 'http://10.0.0.2:9000', token: 'flag-token' },
    );
    assert.deepEqual(loadConfig(env, { url: '  ', token: '' }, noFiles).token, 'env-token');
  });

  it('reads the token from CLAWDIE_TOKEN_FILE', () => {
    const config = loadConfig({ CLAWDIE_TOKEN_FILE: '/run/secrets/t' }, {}, (path) => {
      assert.equal(path, '/run/secrets/t');
      return 'file-token\n';
    });
    assert.equal(config.token, 'file-token');
  });

  it('rejects a URL that is not http(s), naming the variable and the flag', () => {
    for (const url of ['not a url', 'ftp://cp.example.org']) {
      assert.throws(
        () => loadConfig({ CLAWDIE_URL: url }, {}, noFiles),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, 'CONFIG_INVALID');
          assert.match(error.message, /set CLAWDIE_URL or pass --clawdie-url/);
          return true;
        },
      );
    }
  });
});
