// Every action type against real Chromium, observed through the page's own event log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requires } from '../support/capabilities.js';
import { refusedUrl, type StaticSite, startStaticSite } from '../support/static-site.js';
import { fixtureRoutes } from './fixture-pages.js';
import { assertAllOk, type JailClient, startTestJail, type TestJail } from './jail-harness.js';

interface MouseLog {
  click: number;
  dblclick: number;
  contextmenu: number;
  enter: number;
  buttons: number[];
  at: [number, number] | null;
  /** Milliseconds between consecutive clicks, by the page's own event times. */
  gaps: number[];
}
interface KeysLog {
  value: string;
  down: string[];
  up: string[];
}

describe('jail-service actions (real Chromium)', requires('chromium'), () => {
  let site: StaticSite;
  let jail: TestJail;
  let client: JailClient;

  before(async () => {
    site = await startStaticSite(fixtureRoutes(await refusedUrl()));
    jail = await startTestJail({ CLAWDIE_JAIL_NAVIGATION_TIMEOUT_MS: '5000' });
    client = jail.client;
  });
  after(async () => {
    await jail?.close();
    await site?.close();
  });

  const open = async (path: string) => {
    const [result] = assertAllOk(
      await client.run([{ type: 'navigate', url: `${site.url}${path}` }]),
    );
    assert.equal(result?.navigated, true);
  };

  it('clicks at CSS coordinates with no navigation', async () => {
    await open('/mouse');
    const response = await client.run([{ type: 'click', x: 120, y: 50 }]);
    assert.equal(assertAllOk(response)[0]?.navigated, false);
    const log = await client.titleJson<MouseLog>();
    assert.equal(log.click, 1);
    assert.deepEqual(log.at, [120, 50]);
    assert.deepEqual(log.buttons, [0]);
  });

  it('double-clicks with two clicks and one dblclick event', async () => {
    await open('/mouse');
    assertAllOk(await client.run([{ type: 'left_double', x: 100, y: 40 }]));
    const log = await client.titleJson<MouseLog>();
    assert.equal(log.click, 2);
    assert.equal(log.dblclick, 1);
  });

  it('right-clicks with the right button (contextmenu, no click)', async () => {
    await open('/mouse');
    assertAllOk(await client.run([{ type: 'right_single', x: 100, y: 40 }]));
    const log = await client.titleJson<MouseLog>();
    assert.equal(log.contextmenu, 1);
    assert.equal(log.click, 0);
    assert.deepEqual(log.buttons, [2]);
  });

  it('hovers without clicking', async () => {
    await open('/mouse');
    assertAllOk(
      await client.run([
        { type: 'hover', x: 0, y: 0 },
        { type: 'hover', x: 60, y: 30 },
      ]),
    );
    const log = await client.titleJson<MouseLog>();
    assert.equal(log.enter, 1);
    assert.equal(log.click, 0);
  });

  it('drags: mousedown at from, intermediate moves, mouseup at to', async () => {
    await open('/drag');
    assertAllOk(
      await client.run([{ type: 'drag', from: { x: 100, y: 100 }, to: { x: 300, y: 200 } }]),
    );
    const log = await client.titleJson<{
      down: [number, number];
      moves: Array<[number, number]>;
      up: [number, number];
    }>();
    assert.deepEqual(log.down, [100, 100]);
    assert.deepEqual(log.up, [300, 200]);
    assert.ok(log.moves.length >= 3, `moves: ${JSON.stringify(log.moves)}`);
    assert.deepEqual(log.moves.at(-1), [300, 200]);
    for (const [x, y] of log.moves) assert.ok(x >= 100 && x <= 300 && y >= 100 && y <= 200);
  });

  it('scrolls the element under the point by the amount, in all four directions', async () => {
    await open('/scroll');
    type ScrollLog = { boxTop: number; boxLeft: number; pageX: number; pageY: number };
    const scroll = async (direction: 'up' | 'down' | 'left' | 'right', amount?: number) => {
      const action = { type: 'scroll' as const, x: 200, y: 150, direction };
      assertAllOk(await client.run([amount === undefined ? action : { ...action, amount }]));
      return client.titleJson<ScrollLog>();
    };
    assert.deepEqual(await scroll('down', 300), { boxTop: 300, boxLeft: 0, pageX: 0, pageY: 0 });
    assert.deepEqual(await scroll('right'), { boxTop: 300, boxLeft: 500, pageX: 0, pageY: 0 });
    assert.deepEqual(await scroll('up', 100), { boxTop: 200, boxLeft: 500, pageX: 0, pageY: 0 });
    assert.deepEqual(await scroll('left', 200), { boxTop: 200, boxLeft: 300, pageX: 0, pageY: 0 });
    // Outside the box the page itself scrolls.
    assertAllOk(
      await client.run([{ type: 'scroll', x: 600, y: 500, direction: 'down', amount: 250 }]),
    );
    assert.deepEqual(await client.titleJson<ScrollLog>(), {
      boxTop: 200,
      boxLeft: 300,
      pageX: 0,
      pageY: 250,
    });
  });

  it('types ASCII and non-ASCII text into the focused field', async () => {
    await open('/keys');
    const text = 'Grüße, 日本語 ✓ 🙂 ok';
    assertAllOk(
      await client.run([
        { type: 'click', x: 100, y: 35 },
        { type: 'type', text },
      ]),
    );
    assert.equal((await client.titleJson<KeysLog>()).value, text);
  });

  it('types long mixed text exactly, in order', async () => {
    await open('/keys');
    const text = Array.from({ length: 15 }, (_, i) => `word${i} é ñ 日本 `).join('');
    assertAllOk(
      await client.run([
        { type: 'click', x: 100, y: 35 },
        { type: 'type', text },
      ]),
    );
    assert.equal((await client.titleJson<KeysLog>()).value, text);
  });

  it('answers page dialogs: accepts alerts, dismisses confirms', async () => {
    await open('/dialogs');
    const response = await client.run([{ type: 'click', x: 100, y: 50 }]);
    assertAllOk(response);
    assert.equal(response.state.title, 'confirmed:false');
  });

  it('replaces the text after hotkey ctrl+a', async () => {
    await open('/keys');
    assertAllOk(
      await client.run([
        { type: 'click', x: 100, y: 35 },
        { type: 'type', text: 'old text' },
        { type: 'hotkey', keys: ['ctrl', 'a'] },
        { type: 'type', text: 'new' },
      ]),
    );
    const log = await client.titleJson<KeysLog>();
    assert.equal(log.value, 'new');
    assert.ok(log.down.includes('Control'));
  });

  it('presses, holds and releases keys', async () => {
    await open('/keys');
    assertAllOk(
      await client.run([
        { type: 'click', x: 100, y: 35 },
        { type: 'type', text: 'abc' },
        { type: 'press', key: 'backspace' },
        { type: 'keydown', key: 'shift' },
        { type: 'press', key: 'd' },
        { type: 'keyup', key: 'Shift' },
        { type: 'press', key: 'e' },
      ]),
    );
    const log = await client.titleJson<KeysLog>();
    assert.equal(log.value, 'abDe');
    assert.deepEqual(log.down.slice(-4), ['Backspace', 'Shift', 'D', 'e']);
    assert.deepEqual(log.up.slice(-3), ['D', 'Shift', 'e']);
  });

  it('submits with a trailing newline and reports the navigation', async () => {
    await open('/keys');
    const response = await client.run([
      { type: 'click', x: 100, y: 35 },
      { type: 'type', text: 'héllo\n' },
    ]);
    const results = assertAllOk(response);
    assert.equal(results[1]?.navigated, true);
    assert.equal(response.state.url, `${site.url}/submitted?q=h%C3%A9llo`);
    assert.equal(response.state.title, 'submitted');
    assert.equal(response.state.loading, false);
  });

  it('waits for a slow navigation a click caused, and only then', async () => {
    await open('/links');
    const stay = await client.run([{ type: 'click', x: 100, y: 220 }]);
    assert.equal(assertAllOk(stay)[0]?.navigated, false);
    assert.equal(stay.state.title, 'stayed');
    const slow = await client.run([{ type: 'click', x: 100, y: 40 }]);
    const [result] = assertAllOk(slow);
    assert.equal(result?.navigated, true);
    assert.ok((result?.duration_ms ?? 0) >= 600, `duration ${result?.duration_ms}`);
    assert.equal(slow.state.url, `${site.url}/slow`);
    assert.equal(slow.state.title, 'slow');
  });

  it('does not hang on a navigation that commits nothing (204) or fails (refused)', async () => {
    await open('/links');
    const empty = await client.run([{ type: 'click', x: 100, y: 100 }]);
    assert.equal(assertAllOk(empty)[0]?.navigated, false);
    assert.ok((empty.results[0]?.duration_ms ?? 0) < 3000);
    assert.equal(empty.state.url, `${site.url}/links`);
    const refused = await client.run([{ type: 'click', x: 100, y: 160 }]);
    assert.equal(assertAllOk(refused)[0]?.navigated, true);
    assert.ok((refused.results[0]?.duration_ms ?? 0) < 3000);
  });

  it('runs non-navigating clicks without fixed delays', async () => {
    await open('/mouse');
    const clicks = Array.from({ length: 20 }, (_, i) => ({
      type: 'click' as const,
      x: 30 + i,
      y: 40,
    }));
    assertAllOk(await client.run(clicks));
    const log = await client.titleJson<MouseLog>();
    assert.equal(log.click, 20);
    // A fixed pause after each click (a settle wait of 100 ms or more) would part every two clicks
    // by at least that; without one, a busy host stretches some gaps but not all 19.
    assert.equal(log.gaps.length, 19);
    assert.ok(Math.min(...log.gaps) < 100, `gaps between clicks: ${log.gaps.join(', ')} ms`);
  });

  it('navigates, opens URLs and goes back', async () => {
    const response = await client.run([
      { type: 'navigate', url: `${site.url}/a` },
      { type: 'open_url', url: `${site.url}/b` },
      { type: 'navigate_back' },
    ]);
    assert.deepEqual(
      assertAllOk(response).map((result) => result.navigated),
      [true, true, true],
    );
    assert.equal(response.state.url, `${site.url}/a`);
    assert.equal(response.state.title, 'A');
  });

  it('waits the requested time', async () => {
    const started = performance.now();
    const [result] = assertAllOk(await client.run([{ type: 'wait', ms: 300 }]));
    assert.ok((result?.duration_ms ?? 0) >= 290);
    assert.ok(performance.now() - started < 2000);
  });
});
