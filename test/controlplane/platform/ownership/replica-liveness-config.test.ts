// CLAWDIE_REPLICA_HEARTBEAT_MS / CLAWDIE_REPLICA_TIMEOUT_MS: parsed with their defaults, a timeout
// of two heartbeats or less refused by name, and the heartbeat the controlplane's instance row
// really beats at (the replica sweep and its timeout run on the same values, test/e2e/replica-death).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../../../controlplane/src/config.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createInstanceRepository } from '../../../../controlplane/src/platform/store/instance-repository.js';
import { createTestControlplane } from '../../../support/controlplane.js';

describe('replica liveness settings', () => {
  it('default to a 5 s heartbeat and a 20 s timeout', () => {
    assert.deepEqual(loadConfig({}).replicas, { heartbeatMs: 5_000, timeoutMs: 20_000 });
  });

  it('take shorter values', () => {
    const config = loadConfig({
      CLAWDIE_REPLICA_HEARTBEAT_MS: '300',
      CLAWDIE_REPLICA_TIMEOUT_MS: '1500',
    });
    assert.deepEqual(config.replicas, { heartbeatMs: 300, timeoutMs: 1_500 });
  });

  it('refuse a timeout of two heartbeats or less, naming both variables', () => {
    for (const [heartbeat, timeout] of [
      ['5000', '10000'],
      ['1000', '1500'],
      [undefined, '9000'],
    ] as const) {
      assert.throws(
        () =>
          loadConfig({
            ...(heartbeat ? { CLAWDIE_REPLICA_HEARTBEAT_MS: heartbeat } : {}),
            CLAWDIE_REPLICA_TIMEOUT_MS: timeout,
          }),
        (error: Error) =>
          /CLAWDIE_REPLICA_TIMEOUT_MS: must be more than twice CLAWDIE_REPLICA_HEARTBEAT_MS \(2 × \d+ = \d+ ms\)/.test(
            error.message,
          ),
        `${heartbeat} / ${timeout}`,
      );
    }
    assert.throws(() => loadConfig({ CLAWDIE_REPLICA_HEARTBEAT_MS: '0' }), /HEARTBEAT_MS/);
  });

  it('set the period the instance row beats at', async (t) => {
    const controlplane = await createTestControlplane({
      env: { CLAWDIE_REPLICA_HEARTBEAT_MS: '100', CLAWDIE_REPLICA_TIMEOUT_MS: '1000' },
    });
    t.after(() => controlplane.close());
    const database = openDatabase(controlplane.config.databasePath);
    t.after(database.close);
    const instances = createInstanceRepository(database.db);
    const beats = new Set<number>();
    for (let n = 0; n < 12; n++) {
      for (const row of await instances.list()) beats.add(row.heartbeatAt);
      await sleep(50);
    }
    // 600 ms at a 100 ms heartbeat: about 6 beats (the default 5 s: only the registration's).
    assert.ok(beats.size >= 3, `${beats.size} distinct heartbeats in 600 ms`);
  });
});
