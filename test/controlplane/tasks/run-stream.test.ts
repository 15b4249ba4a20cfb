// The task run's one event stream (tasks/run-stream.ts): recorders in order and awaited, then
// listeners, one event at a time in publish order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { LoopEvent } from '../../../controlplane/src/agent/loop/loop-types.js';
import { RunStream } from '../../../controlplane/src/tasks/run-stream.js';
import { silentLogger } from '../../support/silent-logger.js';

const started = (step: number): LoopEvent => ({ type: 'step-started', step, at: step });
const stepOf = (event: LoopEvent) => ('step' in event ? event.step : -1);

/** A recorder that holds each event until `release()`; what it saw is in `seen`. */
function slowRecorder(name: string, log: string[]) {
  const waiting: Array<() => void> = [];
  return {
    record: (event: LoopEvent) =>
      new Promise<void>((resolve) => {
        log.push(`${name} ${stepOf(event)}`);
        waiting.push(resolve);
      }),
    release: () => waiting.shift()?.(),
  };
}

describe('RunStream', () => {
  it('delivers at once when nothing is in flight: every recorder, then every listener', () => {
    const log: string[] = [];
    const stream = new RunStream(
      [
        (event) => void log.push(`trace ${stepOf(event)}`),
        (event) => void log.push(`sse ${stepOf(event)}`),
      ],
      silentLogger,
    );
    stream.subscribe((event) => log.push(`listener ${stepOf(event)}`));
    void stream.publish(started(1));
    assert.deepEqual(log, ['trace 1', 'sse 1', 'listener 1']);
  });

  it('awaits a recorder before the next one and the listeners; later events wait their turn', async () => {
    const log: string[] = [];
    const slow = slowRecorder('trace', log);
    const stream = new RunStream(
      [slow.record, (event) => void log.push(`sse ${stepOf(event)}`)],
      silentLogger,
    );
    stream.subscribe((event) => log.push(`listener ${stepOf(event)}`));
    const first = stream.publish(started(1));
    const second = stream.publish(started(2));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(log, ['trace 1'], 'nothing else until the trace has kept event 1');
    slow.release();
    await first;
    assert.deepEqual(log, ['trace 1', 'sse 1', 'listener 1', 'trace 2']);
    slow.release();
    await second;
    assert.deepEqual(log, ['trace 1', 'sse 1', 'listener 1', 'trace 2', 'sse 2', 'listener 2']);
  });

  it('logs a listener that throws or a recorder that rejects, and goes on', async () => {
    const errors: string[] = [];
    const logger = pino(
      { level: 'error' },
      { write: (line: string) => errors.push(JSON.parse(line).msg) },
    );
    const seen: number[] = [];
    const stream = new RunStream(
      [(event) => (stepOf(event) === 1 ? Promise.reject(new Error('disk full')) : undefined)],
      logger,
    );
    stream.subscribe(() => {
      throw new Error('bad listener');
    });
    stream.subscribe((event) => seen.push(stepOf(event)));
    await stream.publish(started(1));
    await stream.publish(started(2));
    assert.deepEqual(seen, [2], 'event 1 stopped at its failed recorder; event 2 went through');
    assert.deepEqual(errors, ['a task event recorder failed', 'a task event listener threw']);
  });

  it('stops telling a listener once it unsubscribed', () => {
    const stream = new RunStream([], silentLogger);
    const seen: number[] = [];
    const unsubscribe = stream.subscribe((event) => seen.push(stepOf(event)));
    void stream.publish(started(1));
    unsubscribe();
    void stream.publish(started(2));
    assert.deepEqual(seen, [1]);
  });
});
