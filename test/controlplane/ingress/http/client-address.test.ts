// Which address a request counts as (limiter key, audit `source`): X-Forwarded-For is believed
// only from a configured proxy, and then only its right-most hop that is not a proxy itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../../controlplane/src/config.js';
import {
  createTrustedProxies,
  resolveClientAddress,
} from '../../../../controlplane/src/ingress/http/trusted-proxies.js';

describe('client address', () => {
  const none = createTrustedProxies([]);
  const proxies = createTrustedProxies(['10.0.0.0/8', '::1', 'fd00::/8', '192.0.2.7']);

  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    assert.equal(resolveClientAddress('127.0.0.1', '203.0.113.9', none), '127.0.0.1');
    assert.equal(resolveClientAddress('::ffff:127.0.0.1', '203.0.113.9', none), '127.0.0.1');
    assert.equal(resolveClientAddress('198.51.100.1', '10.0.0.1', proxies), '198.51.100.1');
  });

  it('is the right-most untrusted X-Forwarded-For hop behind trusted proxies', () => {
    assert.equal(resolveClientAddress('10.0.0.5', '203.0.113.9', proxies), '203.0.113.9');
    assert.equal(
      resolveClientAddress('::ffff:10.0.0.5', '6.6.6.6, 203.0.113.9, 10.1.2.3', proxies),
      '203.0.113.9',
      'a spoofed left-most entry is not taken',
    );
    assert.equal(resolveClientAddress('::1', '2001:db8::1, fd00::2', proxies), '2001:db8::1');
    assert.equal(resolveClientAddress('192.0.2.7', '[2001:db8::5]:443', proxies), '2001:db8::5');
    assert.equal(resolveClientAddress('192.0.2.7', '203.0.113.9:5555', proxies), '203.0.113.9');
  });

  it('stops at the last vouched-for hop on garbage, and takes the left-most when all are proxies', () => {
    const junk = `${'x'.repeat(8000)}, 10.0.0.9`;
    assert.equal(resolveClientAddress('10.0.0.5', junk, proxies), '10.0.0.9');
    assert.equal(resolveClientAddress('10.0.0.5', 'not-an-ip', proxies), '10.0.0.5');
    assert.equal(resolveClientAddress('10.0.0.5', '10.0.0.1, 10.0.0.2', proxies), '10.0.0.1');
    assert.equal(resolveClientAddress('10.0.0.5', undefined, proxies), '10.0.0.5');
    assert.equal(resolveClientAddress('unknown', '203.0.113.9', proxies), 'unknown');
  });

  it('reads CLAWDIE_TRUSTED_PROXIES (default none) and refuses what is not an address or block', () => {
    assert.deepEqual(loadConfig({}).trustedProxies, []);
    assert.deepEqual(
      loadConfig({ CLAWDIE_TRUSTED_PROXIES: ' 10.0.0.0/8, ::1 ,192.0.2.7' }).trustedProxies,
      ['10.0.0.0/8', '::1', '192.0.2.7'],
    );
    for (const bad of ['10.0.0.0/33', 'proxy.example', '10.0.0.1/8/8', '::1/129', '10.0.0.0/x'])
      assert.throws(
        () => loadConfig({ CLAWDIE_TRUSTED_PROXIES: bad }),
        /CLAWDIE_TRUSTED_PROXIES: must be comma-separated IP addresses or CIDR blocks/,
        bad,
      );
  });
});
