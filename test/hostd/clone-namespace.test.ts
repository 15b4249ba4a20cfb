// Clone namespaces: every derived name stays within its OS limit for the longest namespace and
// index, and two namespaces never share a name, uid, address or display.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../hostd/src/config.js';
import {
  cloneNamespace,
  DEFAULT_NAMESPACE,
  NAMESPACE_SLOTS,
} from '../../hostd/src/drivers/clone-namespace.js';
import {
  defaultFreeBsdLayout,
  indexOfAddress,
  indexOfInterface,
  indexOfJailName,
  taskNames,
} from '../../hostd/src/drivers/freebsd/names.js';
import { cloneName, parseCloneName } from '../../hostd/src/drivers/jail-driver.js';
import { indexFromShortName, linuxNames } from '../../hostd/src/drivers/linux/names.js';
import { TEST_NAMESPACES } from './support/linux-harness.js';

const IFNAMSIZ_USABLE = 15;
const longest = cloneNamespace('abcdefgh');

describe('clone namespaces', () => {
  it('keeps today’s names in the default namespace', () => {
    assert.equal(cloneName(7, DEFAULT_NAMESPACE), 'browsertask007');
    const linux = linuxNames(7, { stateRoot: '/r', uidBase: 20_000, namespace: DEFAULT_NAMESPACE });
    assert.deepEqual(
      [linux.netns, linux.hostVeth, linux.hostAddress, linux.uid, linux.display],
      ['bt007', 'bt007h', '10.78.0.29', 20_007, 207],
    );
    const freebsd = taskNames(7);
    assert.deepEqual(
      [freebsd.jail, freebsd.hostIf, freebsd.epairUnit, freebsd.jailIp],
      ['browsertask007', 'bt007a', 'epair1007', '10.78.0.30'],
    );
  });

  it('keeps every interface name of the longest namespace within IFNAMSIZ', () => {
    const linux = linuxNames(999, { stateRoot: '/r', uidBase: 20_000, namespace: longest });
    const layout = { ...defaultFreeBsdLayout, namespace: longest };
    const freebsd = taskNames(999, layout);
    for (const name of [
      linux.hostVeth,
      linux.cloneVeth,
      freebsd.hostIf,
      freebsd.jailIf,
      `${freebsd.epairUnit}a`,
    ]) {
      assert.ok(name.length <= IFNAMSIZ_USABLE, `${name} is ${name.length} characters`);
    }
    assert.equal(indexFromShortName(linux.hostVeth, longest), 999);
    assert.equal(indexOfInterface(freebsd.hostIf, layout), 999);
  });

  it('gives the namespaces of the tests disjoint names, uids, addresses and displays, each blind to the others', () => {
    const a = cloneNamespace('test');
    const b = cloneNamespace('testb');
    const all = [DEFAULT_NAMESPACE, ...TEST_NAMESPACES];
    assert.deepEqual(
      all.map((namespace) => namespace.slot),
      [...new Set(all.map((namespace) => namespace.slot))],
      'one slot each: two of them could not run at once',
    );
    const seen = new Map<string, string>();
    for (const namespace of all) {
      for (const index of [1, 500, 999]) {
        const n = linuxNames(index, { stateRoot: '/r', uidBase: 20_000, namespace });
        const f = taskNames(index, { ...defaultFreeBsdLayout, namespace });
        for (const value of [
          n.name,
          n.netns,
          n.hostVeth,
          n.hostAddress,
          n.cloneAddress,
          `uid${n.uid}`,
          `x${n.display}`,
          `p${n.loopbackPort}`,
          f.epairUnit,
          f.hostIf,
        ]) {
          assert.equal(
            seen.get(value),
            undefined,
            `${value} of ${namespace.name} is also ${seen.get(value)}'s`,
          );
          seen.set(value, namespace.name);
        }
      }
    }
    const theirs = taskNames(7, { ...defaultFreeBsdLayout, namespace: b });
    const ours = { ...defaultFreeBsdLayout, namespace: a };
    assert.equal(parseCloneName(theirs.jail, a), null);
    assert.equal(indexOfJailName(theirs.jail, ours), null);
    assert.equal(indexOfInterface(theirs.hostIf, ours), null);
    assert.equal(indexOfInterface(`${theirs.epairUnit}a`, ours), null);
    assert.equal(indexOfAddress(theirs.jailIp, ours), null);
    assert.equal(indexFromShortName(`bt${b.infix}007h`, a), null);
    assert.equal(indexFromShortName('bt007h', a), null);
  });

  it('puts every slot inside 10.78.0.0/16 and below the uid ceiling', () => {
    for (let slot = 0; slot < NAMESPACE_SLOTS; slot += 1) {
      const namespace = { name: `s${slot}`, infix: `s${slot}`, slot };
      const last = linuxNames(999, { stateRoot: '/r', uidBase: 4_000_000, namespace });
      assert.match(last.cloneAddress, /^10\.78\.(\d+)\.(\d+)$/);
      assert.ok(Number(last.cloneAddress.split('.')[2]) <= 255);
    }
  });

  it('CLAWDIE_HOSTD_NAMESPACE: defaults to default, refuses what no OS name can carry', () => {
    const base = { CLAWDIE_HOSTD_TOKEN: 'a-token-of-sixteen-chars' };
    assert.deepEqual(loadConfig(base, undefined, 'linux').namespace, DEFAULT_NAMESPACE);
    assert.equal(
      loadConfig({ ...base, CLAWDIE_HOSTD_NAMESPACE: 'ci2' }, undefined, 'linux').namespace.infix,
      'ci2',
    );
    for (const bad of ['Test', '2nd', 'toolongname', 'a-b', 'a_b']) {
      assert.throws(
        () => loadConfig({ ...base, CLAWDIE_HOSTD_NAMESPACE: bad }, undefined, 'linux'),
        /CLAWDIE_HOSTD_NAMESPACE: must be 1–8 characters/,
        bad,
      );
    }
  });
});
