// Property-style test (freebsd-jails.md §4.4): seeded random interleavings of create, start,
// destroy and hostd crashes over three indexes; after a final reconcile the host is empty and
// every index can be created again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JailDriverError } from '../../../hostd/src/drivers/jail-driver.js';
import { createDriver, FakeFreeBSD, spec } from './driver-fixture.js';
import { SimulatedCrash } from './fake-freebsd.js';

/** mulberry32: a tiny deterministic PRNG so failures are reproducible from the seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INDEXES = [1, 2, 3] as const;

async function scenario(seed: number): Promise<string[]> {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const fake = new FakeFreeBSD();
  let driver = createDriver(fake, `s${seed}`);
  const trace: string[] = [];
  for (let round = 0; round < 12; round += 1) {
    const index = pick(INDEXES);
    const name = `browsertask00${index}`;
    const action = pick(['create', 'start', 'destroy', 'crash-create', 'reconcile'] as const);
    trace.push(`${action} ${index}`);
    try {
      if (action === 'create') await driver.create(index, spec(`t${index}`));
      if (action === 'start') await driver.start(name, { egressProxyUrl: null });
      if (action === 'destroy') await driver.destroy(name);
      if (action === 'reconcile') await driver.reconcile((clone) => clone.index !== index);
      if (action === 'crash-create') {
        fake.crashAtStep(1 + Math.floor(next() * 10));
        await driver.create(index, spec(`t${index}`));
        await driver.start(name, { egressProxyUrl: null });
      }
    } catch (error) {
      if (error instanceof SimulatedCrash) driver = createDriver(fake, `s${seed}r${round}`);
      // Domain errors (CLONE_EXISTS, CLONE_NOT_FOUND, …) are expected in random sequences.
      else if (!(error instanceof JailDriverError)) throw error;
    } finally {
      fake.crashAtStep(null);
    }
  }
  const final = await createDriver(fake).reconcile(() => false);
  assert.deepEqual(final.leftovers, {}, trace.join(', '));
  assert.deepEqual(fake.residue(), [], trace.join(', '));
  const fresh = createDriver(fake);
  for (const index of INDEXES) await fresh.create(index, spec('again'));
  return trace;
}

describe('FreeBSD driver under random interleavings', () => {
  it('always reconciles to an empty host with a consistent allocator (50 seeds)', async () => {
    for (let seed = 1; seed <= 50; seed += 1) await scenario(seed);
  });
});
