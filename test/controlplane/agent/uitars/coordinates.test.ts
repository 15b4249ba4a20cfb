import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  clampToViewport,
  MODEL_RANGE_TOLERANCE,
  mapModelPoint,
  modelDivisors,
  modelPointToScreenshot,
  screenshotToCss,
} from '../../../../controlplane/src/agent/uitars/coordinates.js';

function near(actual: number, expected: number, label: string): void {
  assert.ok(Math.abs(actual - expected) < 1e-9, `${label}: ${actual} != ${expected}`);
}

describe('modelDivisors', () => {
  it('is 1000×1000 for mode 1.0 whatever the screenshot', () => {
    assert.deepEqual(modelDivisors('1.0', { width: 1920, height: 1080 }), {
      width: 1000,
      height: 1000,
    });
    assert.deepEqual(modelDivisors('1.0', { width: 390, height: 844 }), {
      width: 1000,
      height: 1000,
    });
  });

  it('is the smart-resized size for mode 1.5', () => {
    assert.deepEqual(modelDivisors('1.5', { width: 1920, height: 1080 }), {
      width: 1932,
      height: 1092,
    });
    assert.deepEqual(modelDivisors('1.5', { width: 1522, height: 1022 }), {
      width: 1512,
      height: 1008,
    });
  });

  it('falls back to 1000×1000 in mode 1.5 when smart_resize rejects the aspect ratio', () => {
    assert.deepEqual(modelDivisors('1.5', { width: 6000, height: 20 }), {
      width: 1000,
      height: 1000,
    });
  });
});

describe('modelPointToScreenshot', () => {
  it('maps the §3.4 worked example (966,546) on 1920×1080 to (960,540) in mode 1.5', () => {
    assert.deepEqual(
      modelPointToScreenshot({ x: 966, y: 546 }, '1.5', { width: 1920, height: 1080 }),
      {
        x: 960,
        y: 540,
      },
    );
  });

  it('maps the same numbers as mode 1.0 to (1854.72, 589.68)', () => {
    const point = modelPointToScreenshot({ x: 966, y: 546 }, '1.0', { width: 1920, height: 1080 });
    near(point.x, 1854.72, 'x');
    near(point.y, 589.68, 'y');
  });

  it('keeps fractions (no early rounding) and maps 0 to 0', () => {
    const point = modelPointToScreenshot({ x: 333, y: 1 }, '1.0', { width: 1000, height: 999 });
    near(point.x, 333, 'x');
    near(point.y, 0.999, 'y');
    assert.deepEqual(modelPointToScreenshot({ x: 0, y: 0 }, '1.5', { width: 1280, height: 800 }), {
      x: 0,
      y: 0,
    });
  });

  it('uses the 1000 fallback for extreme aspect ratios in mode 1.5', () => {
    assert.deepEqual(
      modelPointToScreenshot({ x: 500, y: 500 }, '1.5', { width: 6000, height: 20 }),
      {
        x: 3000,
        y: 10,
      },
    );
  });
});

describe('screenshotToCss and clampToViewport', () => {
  it('divides by the device pixel ratio, keeping fractions', () => {
    assert.deepEqual(screenshotToCss({ x: 961, y: 541 }, 2), { x: 480.5, y: 270.5 });
    const scaled = screenshotToCss({ x: 100, y: 50 }, 1.25);
    near(scaled.x, 80, 'x');
    near(scaled.y, 40, 'y');
  });

  it('clamps into [0, width-1] × [0, height-1] and reports it', () => {
    const viewport = { width: 1280, height: 800 };
    assert.deepEqual(clampToViewport({ x: 10.5, y: 20 }, viewport), {
      point: { x: 10.5, y: 20 },
      clamped: false,
    });
    assert.deepEqual(clampToViewport({ x: 1280, y: 800 }, viewport), {
      point: { x: 1279, y: 799 },
      clamped: true,
    });
    assert.deepEqual(clampToViewport({ x: -0.5, y: 5 }, viewport), {
      point: { x: 0, y: 5 },
      clamped: true,
    });
    assert.deepEqual(clampToViewport({ x: 0, y: 0 }, viewport), {
      point: { x: 0, y: 0 },
      clamped: false,
    });
  });
});

describe('mapModelPoint', () => {
  const context = {
    mode: '1.0' as const,
    screenshot: { width: 2560, height: 1600 },
    devicePixelRatio: 2,
    viewport: { width: 1280, height: 800 },
  };

  it('maps model units to screenshot and CSS pixels', () => {
    assert.deepEqual(mapModelPoint({ x: 500, y: 250 }, context), {
      screenshot: { x: 1280, y: 400 },
      css: { x: 640, y: 200 },
      clamped: false,
    });
  });

  it('clamps a small overshoot such as 1000 in mode 1.0', () => {
    assert.deepEqual(mapModelPoint({ x: 1000, y: 1000 }, context), {
      screenshot: { x: 2560, y: 1600 },
      css: { x: 1279, y: 799 },
      clamped: true,
    });
    assert.notEqual(mapModelPoint({ x: 1000 * (1 + MODEL_RANGE_TOLERANCE), y: 0 }, context), null);
  });

  it('rejects negative, non-finite and far out-of-range points', () => {
    assert.equal(mapModelPoint({ x: -1, y: 10 }, context), null);
    assert.equal(mapModelPoint({ x: Number.NaN, y: 10 }, context), null);
    assert.equal(mapModelPoint({ x: 10, y: Number.POSITIVE_INFINITY }, context), null);
    assert.equal(mapModelPoint({ x: 1051, y: 10 }, context), null);
    assert.equal(mapModelPoint({ x: 10, y: 1051 }, context), null);
  });

  it('uses the smart-resized range in mode 1.5', () => {
    const v15 = {
      ...context,
      mode: '1.5' as const,
      screenshot: { width: 1920, height: 1080 },
      devicePixelRatio: 1,
      viewport: { width: 1920, height: 1080 },
    };
    assert.deepEqual(mapModelPoint({ x: 1932, y: 1092 }, v15)?.css, { x: 1919, y: 1079 });
    assert.equal(mapModelPoint({ x: 2100, y: 10 }, v15), null);
  });
});
