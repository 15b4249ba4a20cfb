// The settle tracker (issue 24, 2): which changes of a screen are the page's. Thumbnails are built
// cell by cell: a caret that blinks every 500 ms, a clock digit that ticks every second, a label
// that changes twice, a large panel that appears, a small icon on an otherwise still screen.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Thumbnail } from '../../../../controlplane/src/browser/wait/frame-diff.js';
import {
  changedCells,
  SettleTracker,
} from '../../../../controlplane/src/browser/wait/settle-tracker.js';

const W = 80;
const H = 50;

/** A 80×50-cell thumbnail, grey, with `cells` painted `value`. */
function thumb(painted: Record<number, number> = {}): Thumbnail {
  const data = new Uint8Array(W * H * 3).fill(200);
  for (const [cell, value] of Object.entries(painted))
    data.fill(value, Number(cell) * 3, Number(cell) * 3 + 3);
  return { width: W, height: H, sourceWidth: W * 8, sourceHeight: H * 8, data };
}

const CARET = [410, 490, 570];
const CLOCK = [3900, 3901];
const PANEL = Array.from({ length: 400 }, (_, i) => 1000 + i);

/** The screen at `t` ms: caret on in odd half-seconds, the clock's digit by the second. */
function screenAt(t: number, extra: Record<number, number> = {}): Thumbnail {
  const painted: Record<number, number> = { ...extra };
  if (Math.floor(t / 500) % 2 === 1) for (const cell of CARET) painted[cell] = 0;
  for (const cell of CLOCK) painted[cell] = 20 + 40 * (Math.floor(t / 1000) % 5);
  return thumb(painted);
}

const panel = (value: number) => Object.fromEntries(PANEL.map((cell) => [cell, value]));

/** Observes frames every 250 ms from 0 to `until` inclusive. */
function run(until: number, extraAt: (t: number) => Record<number, number> = () => ({})) {
  const tracker = new SettleTracker();
  for (let t = 0; t <= until; t += 250) tracker.observe(screenAt(t, extraAt(t)), t);
  return tracker;
}

describe('settle tracker', () => {
  it('lists the changed cells, and none for another geometry', () => {
    assert.deepEqual([...(changedCells(thumb(), thumb({ 7: 0, 9: 190 }), 24) ?? [])], [7]);
    assert.equal(changedCells(thumb(), { ...thumb(), width: W - 1 }, 24), null);
  });

  it('does not take a blinking caret and a ticking clock for a change', () => {
    for (const t of [1000, 2000, 3000, 4750]) {
      const settled = run(t).settled(t, 1000);
      assert.equal(settled.changed, false, `at ${t} ms`);
    }
  });

  it('takes a panel appearing among them as the change, and is quiet 1 s after it', () => {
    const after = (t: number) => (t >= 2500 ? panel(90) : {});
    assert.deepEqual(run(2500, after).settled(2500, 1000), { lastChangeAt: 2500, changed: true });
    const later = run(3500, after).settled(3500, 1000);
    assert.equal(later.changed, true);
    assert.equal(later.lastChangeAt, 2500, 'the caret and clock since do not count');
  });

  it("holds a small first change while the screen has restless cells (a clock's first tick)", () => {
    const tracker = new SettleTracker();
    // A caret blinks from the start; a second clock starts ticking at 1.6 s (every 1 s).
    for (let t = 0; t <= 2500; t += 250) {
      const second = t >= 1600 ? { 2000: 20 + 40 * Math.floor((t - 1600) / 1000) } : {};
      tracker.observe(screenAt(t, second), t);
    }
    assert.equal(tracker.settled(2500, 1000).changed, false, 'one tick seen: not yet the page');
  });

  it('takes a small change (a 16×16 icon) once it stayed alone for twice the settle time', () => {
    const tracker = new SettleTracker();
    tracker.observe(thumb(), 0);
    tracker.observe(thumb({ 77: 0 }), 250);
    assert.deepEqual(tracker.settled(2000, 1000), { lastChangeAt: 250, changed: false });
    assert.deepEqual(tracker.settled(2250, 1000), { lastChangeAt: 250, changed: true });
  });

  it("does not take a clock's first tick for the page's change when polls are a second apart", () => {
    const tracker = new SettleTracker();
    tracker.observe(thumb({ 3900: 20 }), 0);
    tracker.observe(thumb({ 3900: 60 }), 1000);
    assert.equal(tracker.settled(1990, 1000).changed, false, 'the next tick is not seen yet');
  });

  it("does not take a clock's minute turning beside its restless seconds for the page's change", () => {
    // Cells 3900/3901 (block 15 of block row 12, 20 blocks a row) tick; the minute digit two blocks left
    // (cells 3892/3893, block 13) turns once at 1.1 s, reaching them through block 14.
    const minute = (t: number) => (t >= 1100 ? { 3892: 90, 3893: 90 } : {});
    const tracker = run(3500, minute);
    assert.equal(tracker.settled(3500, 1000).changed, false, 'the minute digit is the clock');
    // The same two cells far from the clock (block 0 of row 12) are the page's change.
    const far = (t: number) => (t >= 1100 ? { 3840: 90, 3841: 90 } : {});
    assert.deepEqual(run(3500, far).settled(3500, 1000), { lastChangeAt: 1250, changed: true });
  });

  it('counts a region that changed twice and then stayed still, once it is still long enough', () => {
    const tracker = new SettleTracker();
    const label = (value: number) => thumb(panel(value));
    tracker.observe(label(200), 0);
    tracker.observe(label(100), 300);
    tracker.observe(label(30), 1500);
    assert.equal(tracker.settled(2000, 1000).changed, false, 'still restless: gap 1.2 s');
    assert.deepEqual(tracker.settled(4000, 1000), { lastChangeAt: 1500, changed: true });
  });
});
