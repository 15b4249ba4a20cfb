import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  IMAGE_FACTOR,
  MAX_PIXELS_V1_5,
  MAX_RATIO,
  MIN_PIXELS,
  roundHalfEven,
  smartResize,
} from '../../../../controlplane/src/agent/uitars/smart-resize.js';

describe('roundHalfEven', () => {
  it('rounds halves to the even neighbour like Python round()', () => {
    const cases: Array<[number, number]> = [
      [0.5, 0],
      [1.5, 2],
      [2.5, 2],
      [3.5, 4],
      [36.5, 36],
      [42.5, 42],
      [43.5, 44],
      [-0.5, 0],
      [-1.5, -2],
      [-2.5, -2],
    ];
    for (const [input, expected] of cases) {
      assert.equal(roundHalfEven(input), expected, `round(${input})`);
    }
  });

  it('rounds non-halves to the nearest integer', () => {
    assert.equal(roundHalfEven(2.4999), 2);
    assert.equal(roundHalfEven(2.5001), 3);
    assert.equal(roundHalfEven(-2.6), -3);
    assert.equal(roundHalfEven(7), 7);
    assert.equal(roundHalfEven(0), 0);
  });
});

describe('smartResize', () => {
  it('exports the Qwen2.5-VL / UI-TARS-1.5 constants', () => {
    assert.equal(IMAGE_FACTOR, 28);
    assert.equal(MIN_PIXELS, 78_400);
    assert.equal(MAX_PIXELS_V1_5, 12_845_056);
    assert.equal(MAX_RATIO, 200);
  });

  it('matches the divisor table of uitars-protocol.md §3.4', () => {
    const table: Array<[number, number, number, number]> = [
      [1024, 768, 1036, 756],
      [1280, 720, 1288, 728],
      [1280, 800, 1288, 812],
      [1366, 768, 1372, 756],
      [1440, 900, 1428, 896],
      [1920, 1080, 1932, 1092],
      [2560, 1440, 2548, 1428],
      [2560, 1600, 2548, 1596],
      [2880, 1800, 2884, 1792],
      [3840, 2160, 3836, 2156],
      [5120, 2880, 4760, 2688],
    ];
    for (const [width, height, wBar, hBar] of table) {
      assert.deepEqual(
        smartResize(width, height),
        { width: wBar, height: hBar },
        `${width}×${height}`,
      );
    }
  });

  it('rounds k + 0.5 tokens half to even: 1522×1022 → 1512×1008 (not 1512×1036 as in the JS SDK)', () => {
    assert.deepEqual(smartResize(1522, 1022), { width: 1512, height: 1008 });
  });

  it('caps at MAX_PIXELS by flooring to the factor (values cross-checked with the Python reference)', () => {
    assert.deepEqual(smartResize(7680, 4320), { width: 4760, height: 2688 });
    const capped = smartResize(7680, 4320);
    assert.ok(capped !== null && capped.width * capped.height <= MAX_PIXELS_V1_5);
  });

  it('scales tiny images up to MIN_PIXELS by ceiling to the factor', () => {
    assert.deepEqual(smartResize(100, 100), { width: 280, height: 280 });
    assert.deepEqual(smartResize(14, 14), { width: 280, height: 280 });
    assert.deepEqual(smartResize(70, 42), { width: 364, height: 224 });
  });

  it('handles portrait and odd sizes', () => {
    assert.deepEqual(smartResize(390, 844), { width: 392, height: 840 });
    assert.deepEqual(smartResize(780, 1688), { width: 784, height: 1680 });
    assert.deepEqual(smartResize(2732, 1536), { width: 2744, height: 1540 });
  });

  it('returns null when the aspect ratio exceeds MAX_RATIO, and accepts exactly 200', () => {
    assert.deepEqual(smartResize(28, 5600), { width: 28, height: 5600 });
    assert.equal(smartResize(28, 5601), null);
    assert.equal(smartResize(5601, 28), null);
  });

  it('returns null for sizes that are not positive finite numbers', () => {
    assert.equal(smartResize(0, 100), null);
    assert.equal(smartResize(100, -1), null);
    assert.equal(smartResize(Number.NaN, 100), null);
  });

  it('honours custom factor and pixel limits', () => {
    assert.deepEqual(smartResize(1920, 1080, { maxPixels: 2700 * 28 * 28 }), {
      width: 1932,
      height: 1092,
    });
    assert.deepEqual(smartResize(1920, 1080, { maxPixels: 1000 * 28 * 28 }), {
      width: 1176,
      height: 644,
    });
    assert.deepEqual(smartResize(100, 100, { factor: 14, minPixels: 0 }), {
      width: 98,
      height: 98,
    });
  });
});
