// POST /landing and the `expect` re-check against real Chromium (issue 20): frames under a point
// or holding the focus across same-origin, same-site cross-origin and out-of-process iframes,
// link and form destinations, history, and an action refused when the page changed meanwhile.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LandingResponse } from '@clawdie/kit/jail-api';
import { sleep } from '@clawdie/kit/timing';
import { requires } from '../support/capabilities.js';
import { assertAllOk, type JailClient } from './jail-harness.js';
import { landing, type Sites, withLandingJail } from './landing-pages.js';

/** What REPORT posts to the top page for each key and input event of a field. */
interface Report {
  id: string;
  type: string;
  value: string;
}

const origins = (reply: LandingResponse) => reply.target?.frames.map((frame) => frame.origin);

describe('POST /landing (real Chromium)', requires('chromium'), () => {
  let sites: Sites;
  let client: JailClient;
  withLandingJail({}, (fixture) => ({ sites, client } = fixture));
  const open = async (url: string) => assertAllOk(await client.run([{ type: 'navigate', url }]));
  /** `id=value` of each input event the page logged, once `count` are in (or after 2 s). */
  const typedValues = async (count: number) => {
    // A frame's report crosses processes (postMessage): it reaches the title a moment later.
    let inputs: Report[] = [];
    for (let attempt = 0; attempt < 20 && inputs.length < count; attempt += 1) {
      if (attempt > 0) await sleep(100);
      inputs = (await client.titleJson<Report[]>()).filter(({ type }) => type === 'input');
    }
    return inputs.map(({ id, value }) => `${id}=${value}`);
  };

  it('reports every frame down a same-origin iframe into a same-site cross-origin one', async () => {
    await open(`${sites.a}/frames`);
    const reply = await landing(client, { type: 'click', x: 100, y: 80 });
    assert.deepEqual(origins(reply), [sites.a, sites.a, sites.b]);
    assert.equal(reply.target?.element?.tag, 'button');
    assert.deepEqual(reply.target?.destination, {
      kind: 'form',
      url: `${sites.b}/pay`,
      method: 'POST',
      new_window: false,
    });
    assert.match(reply.document_id, /\S+\.\S+/);
  });

  it('enters an out-of-process iframe (localhost vs 127.0.0.1) and finds its Pay button', async () => {
    await open(`${sites.a}/frames`);
    const direct = await landing(client, { type: 'click', x: 480, y: 30 });
    assert.deepEqual(origins(direct), [sites.a, sites.b]);
    const foreign = await landing(client, { type: 'click', x: 480, y: 180 });
    assert.deepEqual(origins(foreign), [sites.a, sites.c]);
    assert.equal(foreign.target?.element?.tag, 'button');
    assert.equal(foreign.target?.destination?.url, `${sites.c}/pay`);
    assert.equal(foreign.target?.destination?.method, 'POST');
  });

  it('names the other origin a top-level form posts to, and Enter in its field', async () => {
    await open(`${sites.a}/shop`);
    const button = await landing(client, { type: 'click', x: 50, y: 30 });
    assert.deepEqual(origins(button), [sites.a]);
    assert.equal(button.target?.destination?.url, `${sites.b}/pay`);
    assertAllOk(await client.run([{ type: 'click', x: 50, y: 85 }]));
    const enter = await landing(client, { type: 'press', key: 'Enter' });
    assert.equal(enter.target?.element?.field, 'text');
    assert.equal(enter.target?.destination?.kind, 'form');
    assert.equal(enter.target?.destination?.url, `${sites.b}/pay`);
  });

  it('reports a target=_blank link as a new window, and navigate_back its history entry', async () => {
    await open(`${sites.a}/shop`);
    await open(`${sites.a}/links`);
    const link = await landing(client, { type: 'click', x: 50, y: 30 });
    assert.deepEqual(link.target?.destination, {
      kind: 'link',
      url: `${sites.a}/popup`,
      method: 'GET',
      new_window: true,
    });
    const back = await landing(client, { type: 'navigate_back' });
    assert.equal(back.target?.destination?.kind, 'history');
    assert.equal(back.target?.destination?.url, `${sites.a}/shop`);
  });

  it('follows the focus into a foreign iframe for keyboard actions', async () => {
    await open(`${sites.a}/foreign`);
    // Right after the load: the click waits until the out-of-process frame is drawn (else the
    // browser routes it to the <iframe> element, and the frame's body gets the focus).
    assertAllOk(await client.run([{ type: 'click', x: 100, y: 150 }]));
    const typing = await landing(client, { type: 'type', text: 'x' });
    assert.deepEqual(origins(typing), [sites.a, sites.c]);
    assert.equal(typing.target?.element?.autocomplete, 'username');
    assert.equal(typing.target?.element?.field, 'text');
  });

  it('clicks into the field of an out-of-process frame that draws late, and types there', async () => {
    // Its renderer is busy for 300 ms after its load: the frame is not drawn when the click
    // comes, and a click sent before it is would reach the <iframe> element instead.
    for (let round = 0; round < 3; round += 1) {
      await open(`${sites.a}/foreign-busy`);
      const click = { type: 'click', x: 100, y: 150 } as const;
      assertAllOk(await client.run([click, { type: 'type', text: 'ab' }]));
      assert.deepEqual(await typedValues(2), ['user=a', 'user=ab'], `round ${round}`);
    }
  });

  it('refuses a click whose link changed between landing and action (LANDING_CHANGED, not clicked)', async () => {
    await open(`${sites.a}/swap`);
    const decided = await landing(client, { type: 'click', x: 50, y: 30 });
    assert.equal(decided.target?.destination?.url, `${sites.a}/safe`);
    const expect = {
      document_id: decided.document_id,
      origins: origins(decided) ?? [],
      destination: `${sites.a}/safe`,
    };
    // One reply of two actions: the page swaps the link on the first one's key press.
    const reply = await client.run([
      { type: 'hotkey', keys: ['s'] },
      { type: 'click', x: 50, y: 30, expect },
    ]);
    assert.equal(reply.results[1]?.status, 'error');
    assert.equal(reply.results[1]?.error?.code, 'LANDING_CHANGED');
    assert.equal((await client.state()).title, '0', 'the click was dispatched');
    // Decided against the page as it is now, the same click runs.
    const now = await landing(client, { type: 'click', x: 50, y: 30 });
    const fresh = { ...expect, destination: now.target?.destination?.url ?? null };
    assertAllOk(await client.run([{ type: 'click', x: 50, y: 30, expect: fresh }]));
    assert.equal((await client.state()).title, '1');
  });

  it('refuses an action whose document changed (another page loaded)', async () => {
    await open(`${sites.a}/shop`);
    const decided = await landing(client, { type: 'click', x: 50, y: 30 });
    await open(`${sites.a}/shop`);
    const expect = {
      document_id: decided.document_id,
      origins: origins(decided) ?? [],
      destination: decided.target?.destination?.url ?? null,
    };
    const reply = await client.run([{ type: 'click', x: 50, y: 30, expect }]);
    assert.equal(reply.results[0]?.error?.code, 'LANDING_CHANGED');
    assert.notEqual(reply.state.document_id, decided.document_id);
  });

  // The times are printed, not asserted: a bound here failed on a loaded 2-core host (286 ms
  // median against 250) with either Chromium; docs/performance.md "Landing" has the figures.
  it('decides through 20 nested frames (same-origin, same-site and out-of-process mixed)', async () => {
    await open(`${sites.a}/shop`);
    const flat: number[] = [];
    for (let run = 0; run < 15; run++) {
      const started = performance.now();
      await landing(client, { type: 'click', x: 50, y: 30 });
      flat.push(performance.now() - started);
    }
    flat.sort((x, y) => x - y);
    process.stdout.write(
      `# landing on a page without frames: median ${flat[7]?.toFixed(1)} ms (HTTP round trip included)\n`,
    );
    await open(`${sites.a}/nest/20`);
    const first = await landing(client, { type: 'click', x: 100, y: 100 });
    assert.equal(first.target?.frames.length, 21);
    assert.equal(first.target?.element?.tag, 'button');
    assert.ok(origins(first)?.includes(sites.c));
    const times: number[] = [];
    for (let run = 0; run < 15; run++) {
      const started = performance.now();
      await landing(client, { type: 'click', x: 100, y: 100 });
      times.push(performance.now() - started);
    }
    times.sort((x, y) => x - y);
    const median = times[Math.floor(times.length / 2)] ?? 0;
    process.stdout.write(
      `# landing through 20 nested frames: median ${median.toFixed(1)} ms, min ${times[0]?.toFixed(1)} ms, max ${times.at(-1)?.toFixed(1)} ms (HTTP round trip included)\n`,
    );
    const again = await landing(client, { type: 'click', x: 100, y: 100 });
    assert.deepEqual(again.target, first.target, 'the same answer every time');
  });
});
