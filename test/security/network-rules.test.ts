// Issue 12, network boundary: the rules a clone's egress proxy applies before connecting. The
// allowlist names host AND port; whatever it names, the resolved addresses are checked and the
// host's own, loopback, link-local and clone addresses are refused unless an admin names the exact
// address:port.
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { describe, it } from 'node:test';
import {
  cloneNamespace,
  DEFAULT_NAMESPACE,
  namespaceSlot,
} from '../../hostd/src/drivers/clone-namespace.js';
import { defaultFreeBsdLayout, taskNames } from '../../hostd/src/drivers/freebsd/names.js';
import { linuxNames } from '../../hostd/src/drivers/linux/names.js';
import { nftRuleset } from '../../hostd/src/drivers/linux/network.js';
import { canonicalAddress, createAddressPolicy } from '../../hostd/src/proxy/address-policy.js';
import { compileAllowlist } from '../../hostd/src/proxy/domain-rules.js';
import { decideEgress } from '../../hostd/src/proxy/egress-decision.js';
import { type HostResolver, systemResolver } from '../../hostd/src/proxy/host-resolver.js';
import { proxyFlags } from '../../jail-service/src/browser/chromium-args.js';

const noHostAddresses = () => [] as string[];

/** A resolver that answers from a table, like a hostile DNS server would. */
function fakeResolver(table: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async resolve(host) {
      asked.push(host);
      const answers = table[host];
      if (!answers) throw new Error(`ENOTFOUND ${host}`);
      return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  };
}

describe('egress allowlist entries are host and port', () => {
  it('a bare host allows only 80 and 443; host:port only that port', () => {
    const allowed = compileAllowlist(['example.org', 'api.example.net:8443']);
    assert.equal(allowed('example.org', 80), true);
    assert.equal(allowed('example.org', 443), true);
    assert.equal(allowed('example.org', 8443), false);
    assert.equal(allowed('example.org', 22), false);
    assert.equal(allowed('api.example.net', 8443), true);
    assert.equal(allowed('api.example.net', 443), false);
  });

  it('an allowlisted 127.0.0.1 no longer means every port of it', () => {
    const allowed = compileAllowlist(['127.0.0.1']);
    assert.equal(allowed('127.0.0.1', 8700), false);
    assert.equal(allowed('127.0.0.1', 80), true);
  });

  it('wildcards keep working, with the same port rule', () => {
    const allowed = compileAllowlist(['*.example.org', '*.example.com:8080']);
    assert.equal(allowed('a.example.org', 443), true);
    assert.equal(allowed('a.example.org', 8080), false);
    assert.equal(allowed('example.org', 443), false);
    assert.equal(allowed('b.example.com', 8080), true);
    assert.equal(allowed('b.example.com', 443), false);
    const any = compileAllowlist(['*']);
    assert.equal(any('anything.test', 443), true);
    assert.equal(any('anything.test', 8700), false);
  });
});

describe('address policy: never the host, whatever the allowlist', () => {
  const policy = createAddressPolicy({ hostAddresses: () => ['192.0.2.10', '2001:db8::10'] });

  it('refuses loopback, unspecified, link-local, multicast and broadcast', () => {
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '0.0.0.0',
      '::1',
      '::',
      '169.254.169.254',
      'fe80::1',
      'fe80::1%eth0',
      '224.0.0.1',
      '255.255.255.255',
      'ff02::1',
    ])
      assert.equal(policy.check(address, 80), 'blocked', address);
  });

  it('refuses IPv4-mapped IPv6 forms of those', () => {
    for (const address of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '::ffff:a9fe:a9fe',
    ])
      assert.equal(policy.check(address, 80), 'blocked', address);
    assert.equal(canonicalAddress('::FFFF:7F00:1'), '127.0.0.1');
  });

  it('refuses the host’s own interface addresses and every clone’s', () => {
    assert.equal(policy.check('192.0.2.10', 443), 'blocked');
    assert.equal(policy.check('2001:db8::10', 443), 'blocked');
    assert.equal(policy.check('::ffff:192.0.2.10', 443), 'blocked');
    const clone = linuxNames(7, { stateRoot: '/x', uidBase: 20_000, namespace: DEFAULT_NAMESPACE });
    // The highest slot's last clone has the highest address of any namespace.
    const top = cloneNamespace('prod');
    assert.equal(namespaceSlot('prod'), 15);
    const last = linuxNames(999, { stateRoot: '/x', uidBase: 20_000, namespace: top });
    const jail = taskNames(999, { ...defaultFreeBsdLayout, namespace: top });
    for (const address of [
      clone.hostAddress,
      clone.cloneAddress,
      last.cloneAddress,
      jail.hostIp,
      jail.jailIp,
    ])
      assert.equal(policy.check(address, 3128), 'blocked', address);
  });

  it('reads the real interface list by default', () => {
    const real = createAddressPolicy();
    const own = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .map((entry) => entry.address);
    assert.ok(own.length > 0);
    for (const address of own) assert.equal(real.check(address, 443), 'blocked', address);
  });

  it('lets public addresses through', () => {
    assert.equal(policy.check('93.184.215.14', 443), 'allowed');
    assert.equal(policy.check('2606:2800:21f:cb07:6820:80da:af6b:8b2c', 443), 'allowed');
  });

  it('refuses private ranges by default (a LAN model server, the admin’s other machines)', () => {
    for (const address of [
      '10.1.2.3',
      '172.16.0.9',
      '172.31.255.1',
      '192.168.1.20',
      '100.64.0.7',
      'fd12::1',
    ]) {
      assert.equal(policy.check(address, 443), 'blocked', address);
    }
    assert.equal(policy.check('172.32.0.1', 443), 'allowed', 'just outside 172.16/12');
  });

  it('CLAWDIE_HOSTD_EGRESS_ALLOW_PRIVATE opens private ranges, never the host or the clones', () => {
    const intranet = createAddressPolicy({
      allowPrivate: true,
      hostAddresses: () => ['192.168.1.5'],
    });
    assert.equal(intranet.check('192.168.1.20', 443), 'allowed');
    assert.equal(intranet.check('192.168.1.5', 443), 'blocked', 'the host’s own address');
    assert.equal(intranet.check('10.78.0.6', 9223), 'blocked', 'another clone');
    assert.equal(intranet.check('127.0.0.1', 8700), 'blocked');
  });

  it('an exception opens exactly one address:port, nothing next to it', () => {
    const excepted = createAddressPolicy({
      internalExceptions: ['127.0.0.1:41234', '[::1]:8080'],
      hostAddresses: noHostAddresses,
    });
    assert.deepEqual(excepted.exceptions, ['127.0.0.1:41234', '[::1]:8080']);
    assert.equal(excepted.check('127.0.0.1', 41234), 'allowed');
    assert.equal(excepted.check('::ffff:127.0.0.1', 41234), 'allowed');
    assert.equal(excepted.check('127.0.0.1', 41235), 'blocked');
    assert.equal(excepted.check('127.0.0.1', 8700), 'blocked');
    assert.equal(excepted.check('127.0.0.2', 41234), 'blocked');
    assert.equal(excepted.check('::1', 8080), 'allowed');
    assert.equal(excepted.check('::1', 41234), 'blocked');
    assert.throws(() => createAddressPolicy({ internalExceptions: ['localhost:80'] }));
    assert.throws(() => createAddressPolicy({ internalExceptions: ['127.0.0.1'] }));
  });
});

describe('egress decision: allowlist, then DNS, then every address', () => {
  const addresses = createAddressPolicy({ hostAddresses: noHostAddresses });

  it('an allowed name that resolves to loopback is refused (DNS rebinding)', async () => {
    const resolver = fakeResolver({ 'shop.example.org': ['127.0.0.1'] });
    const rules = { allowed: compileAllowlist(['shop.example.org']), addresses, resolver };
    assert.deepEqual(await decideEgress('shop.example.org', 443, rules), {
      kind: 'refused',
      reason: 'blocked-address',
      address: '127.0.0.1:443',
    });
  });

  it('one internal answer among public ones refuses the whole name', async () => {
    const resolver = fakeResolver({ 'mixed.example.org': ['93.184.215.14', '::ffff:7f00:1'] });
    const rules = { allowed: compileAllowlist(['mixed.example.org']), addresses, resolver };
    const decision = await decideEgress('mixed.example.org', 80, rules);
    assert.equal(decision.kind, 'refused');
    assert.equal(decision.kind === 'refused' && decision.reason, 'blocked-address');
  });

  it('connects to the address it checked, and asks DNS once', async () => {
    const resolver = fakeResolver({ 'shop.example.org': ['93.184.215.14'] });
    const rules = { allowed: compileAllowlist(['shop.example.org']), addresses, resolver };
    assert.deepEqual(await decideEgress('shop.example.org', 443, rules), {
      kind: 'connect',
      address: '93.184.215.14',
    });
    assert.deepEqual(resolver.asked, ['shop.example.org']);
  });

  it('checks the port before resolving anything', async () => {
    const resolver = fakeResolver({ 'shop.example.org': ['93.184.215.14'] });
    const rules = { allowed: compileAllowlist(['shop.example.org']), addresses, resolver };
    assert.deepEqual(await decideEgress('shop.example.org', 8700, rules), {
      kind: 'refused',
      reason: 'not-allowed',
    });
    assert.deepEqual(resolver.asked, []);
  });

  it('the system resolver returns every answer: localhost is loopback, so refused', async () => {
    const answers = await systemResolver.resolve('localhost');
    assert.ok(answers.length > 0);
    const rules = {
      allowed: compileAllowlist(['localhost:8700']),
      addresses,
      resolver: systemResolver,
    };
    const decision = await decideEgress('localhost', 8700, rules);
    assert.equal(decision.kind === 'refused' && decision.reason, 'blocked-address');
    assert.deepEqual(await systemResolver.resolve('[::1]'), [{ address: '::1', family: 6 }]);
  });

  it('odd spellings of loopback are refused too (hex, decimal, mapped literal)', async () => {
    const rules = { allowed: compileAllowlist(['*']), addresses, resolver: systemResolver };
    for (const host of ['0x7f000001', '2130706433', '[::ffff:7f00:1]', '127.1', '0.0.0.0']) {
      const decision = await decideEgress(host, 80, rules);
      assert.equal(decision.kind === 'refused' && decision.reason, 'blocked-address', host);
    }
  });
});

describe('Chromium in a clone sends loopback through the proxy, and resolves nothing itself', () => {
  it('removes the implicit loopback bypass and maps every name to NOTFOUND but the proxy', () => {
    const flags = proxyFlags('http://10.78.0.5:3128');
    assert.ok(flags.includes('--proxy-server=http://10.78.0.5:3128'));
    // `<-loopback>` subtracts the built-in bypass: 127.0.0.1 and localhost go to the proxy (which
    // refuses them), never to the clone's own loopback (where Chromium's debugging port listens).
    assert.deepEqual(
      flags.filter((flag) => flag.startsWith('--proxy-bypass-list=')),
      ['--proxy-bypass-list=<-loopback>'],
    );
    assert.ok(flags.includes('--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 10.78.0.5'));
    // The spelling Chromium 156 honours (the `--force-` one alone let STUN datagrams out).
    assert.ok(flags.includes('--webrtc-ip-handling-policy=disable_non_proxied_udp'));
  });
});

describe('nftables in the clone’s namespace: only the proxy, nothing else', () => {
  it('drops by default and accepts outbound only to its proxy’s address:port', () => {
    const names = linuxNames(7, { stateRoot: '/x', uidBase: 20_000, namespace: DEFAULT_NAMESPACE });
    const rules = nftRuleset(names, { servicePort: 9223, proxyPort: 3128 });
    const accepts = rules.split('\n').filter((line) => line.trim().endsWith('accept'));
    assert.deepEqual(
      accepts.map((line) => line.trim()),
      [
        'iif "lo" accept',
        'ct state established,related accept',
        `iifname "${names.cloneVeth}" ip saddr ${names.hostAddress} tcp dport 9223 accept`,
        'oif "lo" accept',
        'ct state established,related accept',
        `oifname "${names.cloneVeth}" ip daddr ${names.hostAddress} tcp dport 3128 accept`,
      ],
    );
    assert.equal(rules.match(/policy drop;/g)?.length, 3, 'input, output and forward drop');
    assert.match(rules, /^table inet clawdie/, 'one table for IPv4 and IPv6 (IPv6 is all dropped)');
  });
});
