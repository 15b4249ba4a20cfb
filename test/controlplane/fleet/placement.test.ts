import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  choosePlacement,
  type PlacementCandidate,
  placeTask,
} from '../../../controlplane/src/fleet/placement.js';

const host = (name: string, over: Partial<PlacementCandidate> = {}): PlacementCandidate => ({
  name,
  labels: { os: 'linux', display: 'yes' },
  capacity: 4,
  state: 'active',
  health: 'up',
  inUse: 0,
  ...over,
});

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    assert.equal((error as { code?: string }).code, 'FLEET_NO_HOST');
    return (error as Error).message;
  }
  assert.fail('expected FLEET_NO_HOST');
};

describe('placing a task on a jail host', () => {
  it('takes the least loaded host by share of capacity, then free slots, then name', () => {
    const hosts = [
      host('a', { inUse: 2, capacity: 4 }),
      host('b', { inUse: 3, capacity: 8 }),
      host('c', { inUse: 1, capacity: 2 }),
    ];
    assert.equal(placeTask(hosts, { display: false }), 'b');
    assert.equal(
      placeTask([host('x', { capacity: 2 }), host('y', { capacity: 8 })], { display: false }),
      'y',
    );
    assert.equal(placeTask([host('n2'), host('n1')], { display: false }), 'n1');
  });

  it('sends a desktop task only where displays exist, and honours the labels a task asks for', () => {
    const hosts = [
      host('headless', { labels: { os: 'freebsd', display: 'no' } }),
      host('desk', { labels: { os: 'linux', display: 'yes' }, inUse: 3 }),
    ];
    assert.equal(placeTask(hosts, { display: true }), 'desk');
    assert.equal(placeTask(hosts, { display: false, labels: { os: 'freebsd' } }), 'headless');
    const message = refusal(() => placeTask(hosts, { display: true, labels: { os: 'freebsd' } }));
    assert.match(message, /headless: lacks display=yes/);
    assert.match(message, /desk: lacks os=freebsd/);
  });

  it('never places on a host that is down, silent, draining or full, and says which ruled each out', () => {
    const hosts = [
      host('down', { health: 'down' }),
      host('new', { health: 'unknown' }),
      host('drain', { state: 'draining' }),
      host('full', { inUse: 4 }),
    ];
    const message = refusal(() => placeTask(hosts, { display: false }));
    assert.match(message, /down: down/);
    assert.match(message, /new: no heartbeat yet/);
    assert.match(message, /drain: draining/);
    assert.match(message, /full: full \(4\/4\)/);
    assert.equal(placeTask([...hosts, host('ok', { inUse: 3 })], { display: false }), 'ok');
  });

  it('says waiting can help only when a fitting host is full', () => {
    const full = host('full', { inUse: 4 });
    const wrong = host('wrong', { labels: { os: 'freebsd' } });
    const drained = host('drained', { state: 'draining' });
    const outcome = (placed: ReturnType<typeof choosePlacement>) =>
      'full' in placed ? placed.full : placed.host;
    assert.equal(outcome(choosePlacement([full, drained], { display: false })), true);
    assert.equal(
      outcome(choosePlacement([full, wrong], { display: false, labels: { os: 'freebsd' } })),
      'wrong',
    );
    assert.equal(
      outcome(choosePlacement([drained, { ...full, labels: {} }], { display: true })),
      false,
    );
  });

  it('names the missing registration when there is no host at all', () => {
    assert.match(
      refusal(() => placeTask([], { display: false })),
      /clawdie hosts add/,
    );
  });
});
