// The fake FreeBSD host reproduces the documented tool contracts (freebsd-jails.md §4.2), so the
// driver tests mean something; and the driver's parsers read exactly those outputs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  indexOfAddress,
  indexOfInterface,
  taskNames,
} from '../../../hostd/src/drivers/freebsd/names.js';
import {
  mountsBelow,
  parseJlsJson,
  parseMounts,
  parseZfsInventory,
} from '../../../hostd/src/drivers/freebsd/parse.js';
import { createDriver, FakeFreeBSD, spec } from './driver-fixture.js';

const run = (fake: FakeFreeBSD, line: string) =>
  fake.runner.run(line.split(' '), { timeoutMs: 1000 });

describe('FakeFreeBSD tool contracts', () => {
  it('jls -j on a missing jail exits 1 with "not found"', async () => {
    const result = await run(new FakeFreeBSD(), '/usr/sbin/jls -j browsertask001 jid');
    assert.equal(result.exitCode, 1);
    assert.equal(result.stderr, 'jls: jail "browsertask001" not found\n');
  });

  it('zfs list of a missing dataset exits 1 with "dataset does not exist"', async () => {
    const result = await run(new FakeFreeBSD(), '/sbin/zfs list -H -o name zroot/hostd/tasks/x');
    assert.equal(result.exitCode, 1);
    assert.match(result.stderr, /cannot open 'zroot\/hostd\/tasks\/x': dataset does not exist/);
  });

  it('zfs clone onto an existing name fails with "dataset already exists"', async () => {
    const fake = new FakeFreeBSD();
    const line =
      '/sbin/zfs clone zroot/bastille/jails/browser/root@hostd-g0001 zroot/hostd/tasks/a';
    assert.equal((await run(fake, line)).exitCode, 0);
    const again = await run(fake, line);
    assert.equal(again.exitCode, 1);
    assert.match(again.stderr, /dataset already exists/);
  });

  it('jail -R leaves devfs mounted, zfs destroy is then busy, and rctl rules outlive the jail', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    await driver.start('browsertask007', { egressProxyUrl: null });
    assert.equal((await run(fake, '/usr/sbin/jail -R browsertask007')).exitCode, 0);
    const mounts = parseMounts((await run(fake, '/sbin/mount -p')).stdout);
    assert.deepEqual(
      mountsBelow(mounts, '/var/hostd/jails/browsertask007').map((m) => m.mountpoint),
      ['/var/hostd/jails/browsertask007/dev'],
    );
    const destroy = await run(fake, '/sbin/zfs destroy -r zroot/hostd/tasks/browsertask007');
    assert.equal(destroy.exitCode, 1);
    assert.match(destroy.stderr, /pool or dataset is busy/);
    const rules = await run(fake, '/usr/bin/rctl jail:browsertask007');
    assert.match(rules.stdout, /^jail:browsertask007:memoryuse:deny=2147483648$/m);
  });

  it('destroying one epair end destroys both', async () => {
    const fake = new FakeFreeBSD();
    await run(fake, '/sbin/ifconfig epair1001 create');
    assert.equal((await run(fake, '/sbin/ifconfig epair1001b destroy')).exitCode, 0);
    assert.equal((await run(fake, '/sbin/ifconfig -l')).stdout, 'vtnet0 lo0 pflog0\n');
  });

  it('jls --libxo json has the documented shape and parses', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    await driver.start('browsertask007', { egressProxyUrl: null });
    const { stdout } = await run(fake, '/usr/sbin/jls -d -v --libxo json');
    const parsed = JSON.parse(stdout) as Record<string, unknown>;
    assert.equal(parsed.__version, '2');
    assert.deepEqual(parseJlsJson(stdout), [
      { name: 'browsertask007', jid: 1, path: '/var/hostd/jails/browsertask007', dying: false },
    ]);
  });

  it('rejects argv forms outside the model loudly', async () => {
    // Outside the grammar table (grammar/zfs.ts) first, else outside the fake's model.
    await assert.rejects(run(new FakeFreeBSD(), '/sbin/zfs rollback x'), /unmodelled subcommand/);
    await assert.rejects(
      run(new FakeFreeBSD(), '/sbin/zfs list -t snapshot'),
      /unsupported command/,
    );
  });
});

describe('FreeBSD names and parsers', () => {
  it('derives every resource from the index', () => {
    const names = taskNames(7);
    assert.equal(names.hostIp, '10.78.0.29');
    assert.equal(names.jailIp, '10.78.0.30');
    assert.equal(names.hostIf, 'bt007a');
    assert.equal(taskNames(999).jailIp, '10.78.15.158');
    assert.equal(indexOfAddress('10.78.15.157'), 999);
    assert.equal(indexOfInterface('epair1042b'), 42);
    assert.equal(indexOfInterface('epair0a'), null);
    assert.throws(() => taskNames(1000));
  });

  it('reads unset ZFS user properties as null', () => {
    assert.deepEqual(
      parseZfsInventory(
        'zroot/hostd/tasks\t-\t-\t-\nzroot/hostd/tasks/browsertask001\tt1\t99\t:0\nold\tt2\t1\n',
      ),
      [
        { name: 'zroot/hostd/tasks', taskId: null, expires: null, display: null },
        { name: 'zroot/hostd/tasks/browsertask001', taskId: 't1', expires: 99, display: ':0' },
        { name: 'old', taskId: 't2', expires: 1, display: null },
      ],
    );
  });
});
