// The one `sleep` and the one health poller shared by controlplane, hostd and the jail-service.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { type PollHealthOptions, pollHealth, sleep } from '@clawdie/kit/timing';

describe('sleep', () => {
  test('resolves after the delay', async () => {
    const started = performance.now();
    await sleep(20);
    assert.ok(performance.now() - started >= 15);
  });
  test('rejects with the reason when aborted during the wait, and at once when already aborted', async () => {
    const controller = new AbortController();
    const waiting = sleep(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await assert.rejects(waiting, /stop/);
    await assert.rejects(sleep(10_000, AbortSignal.abort(new Error('already'))), /already/);
  });
});

describe('pollHealth', () => {
  let healthyAfter = 3;
  let hits = 0;
  const server: Server = createServer((request, response) => {
    hits += 1;
    const authorized = request.headers.authorization === 'Bearer right';
    response.statusCode = authorized && hits >= healthyAfter ? 200 : authorized ? 503 : 401;
    response.end();
  });
  const listening = new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }),
  );
  after(() => server.close());
  const never = new Promise<number | null>(() => {});
  const poll = async (options: Partial<PollHealthOptions>) =>
    pollHealth({
      url: await listening,
      token: 'right',
      exited: never,
      timeoutMs: 5000,
      intervalMs: 5,
      ...options,
    });

  test('retries until /health answers 200 with the bearer token', async () => {
    hits = 0;
    healthyAfter = 3;
    assert.deepEqual(await poll({}), { ok: true });
    assert.equal(hits, 3);
  });
  test('a wrong token never counts as healthy: a timeout naming the last answer', async () => {
    const result = await poll({ token: 'wrong', timeoutMs: 100 });
    assert.ok(!result.ok && result.why === 'timeout' && /HTTP 401/.test(result.reason));
  });
  test('stops when the child exits, with its exit code', async () => {
    healthyAfter = Number.POSITIVE_INFINITY;
    const result = await poll({ exited: Promise.resolve(3) });
    assert.ok(!result.ok && result.why === 'exited' && result.exitCode === 3);
  });
  test('stops when aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const result = await poll({ signal: controller.signal });
    assert.ok(!result.ok && result.why === 'aborted');
  });
});

describe('pollHealth with an injected probe, clock and sleep (the FreeBSD driver)', () => {
  test('backs off 100 → 1000 ms in virtual time and times out with the last reason', async () => {
    let clock = 0;
    const pauses: number[] = [];
    const result = await pollHealth({
      url: 'http://jail.invalid',
      token: 't',
      timeoutMs: 3000,
      intervalMs: 100,
      maxIntervalMs: 1000,
      probe: async () => 'HTTP 503',
      now: () => clock,
      sleep: async (ms) => {
        pauses.push(ms);
        clock += ms;
      },
    });
    assert.deepEqual(pauses, [100, 200, 400, 800, 1000]);
    assert.ok(!result.ok && result.why === 'timeout');
    assert.match(result.reason, /no healthy answer within 3000 ms \(HTTP 503\)/);
  });

  test("the service's word that it listens ends a pause at once, once; the pauses after it are whole", async () => {
    let listening = false;
    let said = () => {};
    const wake = new Promise<void>((resolve) => {
      said = resolve;
    });
    const attempts: string[] = [];
    const pauses: number[] = [];
    let clock = 0;
    const result = await pollHealth({
      url: 'http://jail.invalid',
      token: 't',
      timeoutMs: 60_000,
      intervalMs: 100,
      maxIntervalMs: 100,
      wake,
      now: () => clock,
      // Refused until it listens, then 503 twice (still starting), then healthy.
      probe: async () => {
        attempts.push(listening ? 'after' : 'before');
        return listening && attempts.filter((a) => a === 'after').length >= 3 ? true : 'refused';
      },
      // A pause in which the line comes (the 3rd) never ends by itself: only the word ends it.
      sleep: (ms) => {
        pauses.push(ms);
        if (pauses.length === 3) {
          listening = true;
          said();
          return new Promise(() => {});
        }
        clock += ms;
        return Promise.resolve();
      },
    });
    assert.deepEqual(result, { ok: true });
    // Three attempts before it listens; the one right after its word; then whole pauses, no spin.
    assert.deepEqual(attempts, ['before', 'before', 'before', 'after', 'after', 'after']);
    assert.deepEqual(pauses, [100, 100, 100, 100, 100]);
  });

  test('a word that comes during an attempt gets the next attempt at once', async () => {
    let said = () => {};
    const wake = new Promise<void>((resolve) => {
      said = resolve;
    });
    let calls = 0;
    const pauses: number[] = [];
    const result = await pollHealth({
      url: 'http://jail.invalid',
      token: 't',
      timeoutMs: 60_000,
      intervalMs: 100,
      wake,
      probe: async () => {
        calls += 1;
        if (calls === 1) {
          said(); // while the first attempt is refused
          await Promise.resolve();
          return 'refused';
        }
        return true;
      },
      sleep: (ms) => {
        pauses.push(ms);
        return new Promise(() => {}); // a pause would hang the test
      },
    });
    assert.deepEqual([result.ok, calls, pauses], [true, 2, []]);
  });

  test('resolves once the probe answers true', async () => {
    let calls = 0;
    const result = await pollHealth({
      url: 'http://jail.invalid',
      token: 't',
      timeoutMs: 3000,
      intervalMs: 1,
      probe: async () => ++calls === 3,
      sleep: async () => {},
    });
    assert.deepEqual([result.ok, calls], [true, 3]);
  });
});
