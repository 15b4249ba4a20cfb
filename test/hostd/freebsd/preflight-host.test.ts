// Issue 26 point 5(c), on the fake FreeBSD host: hostd's preflight refuses a devfs ruleset the
// jails name but the kernel has not loaded (an empty ruleset hides nothing) and ipfw loaded with
// its default rule denying (every VNET task jail would start with ipfw on and drop its traffic).
// Decided off-host against sys/fs/devfs/devfs_rule.c, sbin/devfs/rule.c and
// sys/netpfil/ipfw/ip_fw2.c + ip_fw_pfil.c; not run on a real host.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDriver, FakeFreeBSD } from './driver-fixture.js';

describe('FreeBSD preflight: devfs ruleset and ipfw', () => {
  it('refuses when devfs ruleset 4 (devfsrules_jail) is not loaded', async () => {
    const fake = new FakeFreeBSD();
    assert.deepEqual(await createDriver(fake).preflight(), []);
    assert.ok(fake.commands.includes('/sbin/devfs rule -s 4 show'));
    fake.state.devfsRulesets.delete(4);
    const missing = await createDriver(fake).preflight();
    assert.equal(missing.length, 1);
    assert.match(
      missing[0] ?? '',
      /devfs ruleset 4 \(devfsrules_jail\) is not loaded: .*every host device/,
    );
  });

  it('refuses ipfw with its default rule denying, and accepts default_to_accept=1', async () => {
    const fake = new FakeFreeBSD();
    fake.state.kernelModules.add('ipfw');
    const missing = await createDriver(fake).preflight();
    assert.equal(missing.length, 1);
    assert.match(missing[0] ?? '', /^ipfw is in the kernel with its default rule denying/);
    assert.match(missing[0] ?? '', /net\.inet\.ip\.fw\.default_to_accept=1/);
    fake.state.ipfwDefaultToAccept = true;
    assert.deepEqual(await createDriver(fake).preflight(), []);
  });

  it('does not read ipfw sysctls when ipfw is not in the kernel', async () => {
    const fake = new FakeFreeBSD();
    assert.deepEqual(await createDriver(fake).preflight(), []);
    assert.ok(fake.commands.includes('/sbin/kldstat -q -m ipfw'));
    assert.ok(!fake.commands.some((line) => line.includes('net.inet.ip.fw')));
  });
});
