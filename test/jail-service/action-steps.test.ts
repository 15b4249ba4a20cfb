import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jpegSize } from '@clawdie/kit/images';
import {
  OutOfRangeError,
  ToolTimeoutError,
  UnknownKeyError,
} from '../../jail-service/src/errors.js';
import {
  dragSteps,
  keySteps,
  normalizeUrl,
  pointerSteps,
  scrollSteps,
  typeSteps,
} from '../../jail-service/src/tools/action-steps.js';
import { createSerialQueue } from '../../jail-service/src/tools/serial-queue.js';
import { validateBatch } from '../../jail-service/src/tools/validate-batch.js';
import { withTimeout } from '../../jail-service/src/tools/with-timeout.js';
import { sleep } from '../../kit/src/timing/sleep.js';

describe('jail-service action steps', () => {
  it('clicks with increasing click counts and the right button', () => {
    assert.deepEqual(pointerSteps({ type: 'left_double', x: 0, y: 5 }), [
      { kind: 'mouse-move', x: 0, y: 5 },
      { kind: 'mouse-down', button: 'left', clickCount: 1 },
      { kind: 'mouse-up', button: 'left', clickCount: 1 },
      { kind: 'mouse-down', button: 'left', clickCount: 2 },
      { kind: 'mouse-up', button: 'left', clickCount: 2 },
    ]);
    assert.deepEqual(pointerSteps({ type: 'right_single', x: 1, y: 2 }).slice(1), [
      { kind: 'mouse-down', button: 'right', clickCount: 1 },
      { kind: 'mouse-up', button: 'right', clickCount: 1 },
    ]);
    assert.deepEqual(pointerSteps({ type: 'hover', x: 1, y: 2 }), [
      { kind: 'mouse-move', x: 1, y: 2 },
    ]);
  });

  it('scrolls at the point by the amount in all four directions', () => {
    const wheel = (direction: 'up' | 'down' | 'left' | 'right', amount?: number) =>
      scrollSteps(
        amount === undefined
          ? { type: 'scroll', x: 10, y: 20, direction }
          : { type: 'scroll', x: 10, y: 20, direction, amount },
      );
    assert.deepEqual(wheel('down'), [
      { kind: 'mouse-move', x: 10, y: 20 },
      { kind: 'wheel', deltaX: 0, deltaY: 500 },
    ]);
    assert.deepEqual(wheel('up', 120)[1], { kind: 'wheel', deltaX: 0, deltaY: -120 });
    assert.deepEqual(wheel('left', 30)[1], { kind: 'wheel', deltaX: -30, deltaY: 0 });
    assert.deepEqual(wheel('right')[1], { kind: 'wheel', deltaX: 500, deltaY: 0 });
  });

  it('drags with intermediate moves', () => {
    const steps = dragSteps({ type: 'drag', from: { x: 1, y: 2 }, to: { x: 30, y: 40 } });
    assert.deepEqual(steps[2], { kind: 'mouse-move', x: 30, y: 40, steps: 8 });
    assert.deepEqual(
      steps.map((step) => step.kind),
      ['mouse-move', 'mouse-down', 'mouse-move', 'mouse-up'],
    );
  });

  it('strips one trailing newline from typed text and presses Enter instead', () => {
    assert.deepEqual(typeSteps({ type: 'type', text: 'héllo\n' }), [
      { kind: 'type-text', text: 'héllo' },
      { kind: 'key-down', key: 'Enter' },
      { kind: 'key-up', key: 'Enter' },
    ]);
    assert.deepEqual(typeSteps({ type: 'type', text: 'a\nb' }), [
      { kind: 'type-text', text: 'a\nb' },
    ]);
    assert.deepEqual(typeSteps({ type: 'type', text: 'x\n\n' })[0], {
      kind: 'type-text',
      text: 'x\n',
    });
    assert.deepEqual(typeSteps({ type: 'type', text: '\n' }), [
      { kind: 'key-down', key: 'Enter' },
      { kind: 'key-up', key: 'Enter' },
    ]);
  });

  it('presses chords in order and releases them in reverse', () => {
    assert.deepEqual(keySteps({ type: 'hotkey', keys: ['ctrl', 'shift', 'T'] }), [
      { kind: 'key-down', key: 'Control' },
      { kind: 'key-down', key: 'Shift' },
      { kind: 'key-down', key: 'KeyT' },
      { kind: 'key-up', key: 'KeyT' },
      { kind: 'key-up', key: 'Shift' },
      { kind: 'key-up', key: 'Control' },
    ]);
    assert.deepEqual(keySteps({ type: 'keydown', key: 'shift' }), [
      { kind: 'key-down', key: 'Shift' },
    ]);
    assert.deepEqual(keySteps({ type: 'keyup', key: 'shift' }), [{ kind: 'key-up', key: 'Shift' }]);
    assert.throws(() => keySteps({ type: 'press', key: 'hyper' }), UnknownKeyError);
  });

  it('adds https:// only when the URL has no scheme', () => {
    assert.equal(normalizeUrl('example.com/a?b=1'), 'https://example.com/a?b=1');
    assert.equal(normalizeUrl('localhost:8080'), 'https://localhost:8080');
    assert.equal(normalizeUrl(' http://127.0.0.1:1/ '), 'http://127.0.0.1:1/');
    assert.equal(normalizeUrl('about:blank'), 'about:blank');
    assert.equal(normalizeUrl('data:text/html,hi'), 'data:text/html,hi');
  });
});

describe('jail-service batch validation', () => {
  const viewport = { width: 800, height: 600 };

  it('accepts points inside the viewport, including 0', () => {
    validateBatch(
      [
        { type: 'click', x: 0, y: 0 },
        { type: 'drag', from: { x: 799.5, y: 0 }, to: { x: 0, y: 599 } },
        { type: 'hotkey', keys: ['ctrl', 'a'] },
      ],
      viewport,
    );
  });

  it('rejects x >= width or y >= height naming the action index', () => {
    assert.throws(
      () =>
        validateBatch(
          [
            { type: 'wait', ms: 1 },
            { type: 'scroll', x: 800, y: 10, direction: 'down' },
          ],
          viewport,
        ),
      (error: unknown) =>
        error instanceof OutOfRangeError &&
        /^action 1 \(scroll\): point \(800, 10\)/.test(error.message) &&
        error.issues?.[0]?.path === 'actions.1',
    );
    assert.throws(
      () => validateBatch([{ type: 'drag', from: { x: 1, y: 1 }, to: { x: 1, y: 600 } }], viewport),
      OutOfRangeError,
    );
  });

  it('rejects unknown key names, listing every bad action', () => {
    assert.throws(
      () =>
        validateBatch(
          [
            { type: 'hotkey', keys: ['ctrl', 'hyper'] },
            { type: 'press', key: 'nope' },
            { type: 'click', x: 900, y: 1 },
          ],
          viewport,
        ),
      (error: unknown) => {
        assert.ok(error instanceof UnknownKeyError);
        assert.equal(error.status, 400);
        assert.match(error.message, /action 0 \(hotkey\): unknown key name "hyper"/);
        assert.deepEqual(
          error.issues?.map((issue) => issue.path),
          ['actions.0.keys.1', 'actions.1.key', 'actions.2'],
        );
        return true;
      },
    );
  });
});

describe('jail-service timeouts and helpers', () => {
  it('rejects with TOOL_TIMEOUT at the deadline and aborts the signal', async () => {
    let signal: AbortSignal | undefined;
    const started = performance.now();
    await assert.rejects(
      withTimeout('hang', 50, (context) => {
        signal = context.signal;
        return new Promise(() => {});
      }),
      (error: unknown) => error instanceof ToolTimeoutError && error.code === 'TOOL_TIMEOUT',
    );
    assert.ok(performance.now() - started < 1000);
    assert.equal(signal?.aborted, true);
  });

  it('passes results and errors through and swallows a late rejection', async () => {
    assert.equal(await withTimeout('ok', 1000, async () => 42), 42);
    await assert.rejects(
      withTimeout('fails', 1000, async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    await assert.rejects(
      withTimeout('late', 10, (context) =>
        sleep(50, new AbortController().signal).then(() => {
          assert.equal(context.remainingMs(), 0);
          throw new Error('late failure');
        }),
      ),
      ToolTimeoutError,
    );
    await sleep(60, new AbortController().signal);
  });

  it('runs queued operations one at a time, even after a failure', async () => {
    const queue = createSerialQueue();
    const order: string[] = [];
    const slow = queue.run(async () => {
      order.push('a-start');
      await sleep(20, new AbortController().signal);
      order.push('a-end');
      throw new Error('a failed');
    });
    const fast = queue.run(async () => {
      order.push('b');
      return 'b';
    });
    await assert.rejects(slow, /a failed/);
    assert.equal(await fast, 'b');
    assert.deepEqual(order, ['a-start', 'a-end', 'b']);
  });

  it('reads the size of a JPEG from its start-of-frame marker', () => {
    // SOI, an APP0 segment, then SOF0 with height 600 and width 1600.
    const jpeg = Uint8Array.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58,
      0x06, 0x40, 0x03,
    ]);
    assert.deepEqual(jpegSize(jpeg), { width: 1600, height: 600 });
    assert.equal(jpegSize(Uint8Array.from([0x89, 0x50, 0x4e, 0x47])), undefined);
    assert.equal(jpegSize(jpeg.slice(0, 12)), undefined);
  });
});
