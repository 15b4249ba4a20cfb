// The clone bench's leak runs: create/destroy cycles (half with a display), and kills mid-start at
// 50…1000 ms; then nothing of any clone may be left on the host (else the process exits 1).
import type { CloneLimits } from '../hostd/src/drivers/jail-driver.js';
import { createTestDriver, hostLeftovers } from '../test/hostd/support/linux-harness.js';

const ms = (value: number) => `${value.toFixed(0)} ms`;

export async function runLeakCycles(options: {
  cycles: number;
  kills: number;
  limits: CloneLimits;
}): Promise<never> {
  const { limits } = options;
  const driver = createTestDriver();
  const sleep = (delay: number) => new Promise((resolve) => setTimeout(resolve, delay));
  /** create → destroy (every other with a display); with `killAfterMs`, destroy while starting. */
  async function leakCycle(i: number, killAfterMs: number | null): Promise<boolean> {
    const spec = { taskId: `leak-${i}`, allowedDomains: [], limits, display: i % 2 === 0 };
    const clone = await driver.create(950 + (i % 10), spec);
    let settled = killAfterMs === null;
    const starting = settled
      ? Promise.resolve()
      : driver
          .start(clone.name, { egressProxyUrl: null })
          .then(
            () => {},
            () => {},
          )
          .finally(() => {
            settled = true;
          });
    await sleep(killAfterMs ?? 0);
    const inFlight = !settled;
    const left = [...(await driver.destroy(clone.name)).leftovers];
    await starting;
    left.push(...(await driver.destroy(clone.name)).leftovers);
    if (left.length > 0) throw new Error(`cycle ${i} left ${left.join(', ')}`);
    return inFlight;
  }
  const cycles = options.cycles;
  let started = performance.now();
  for (let i = 0; i < cycles; i += 1) await leakCycle(i, null);
  const perCycle = ms((performance.now() - started) / cycles);
  if (cycles > 0)
    console.log(`${cycles} create/destroy cycles (half with a display): ${perCycle} each`);
  const kills = options.kills;
  let inFlight = 0;
  started = performance.now();
  for (let i = 0; i < kills; i += 1) {
    if (await leakCycle(i, 50 + Math.round((950 * i) / Math.max(1, kills - 1)))) inFlight += 1;
  }
  const perKill = ms((performance.now() - started) / kills);
  if (kills > 0)
    console.log(`${kills} kills mid-start at 50…1000 ms (${inFlight} in flight): ${perKill} each`);
  // Killed processes may take a moment to be reaped; then nothing of any clone may be left.
  let left = hostLeftovers();
  for (let wait = 0; left.length > 0 && wait < 50; wait += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = hostLeftovers();
  }
  console.log(`leftovers on the host: ${JSON.stringify(left)}`);
  process.exit(left.length > 0 ? 1 : 0);
}
