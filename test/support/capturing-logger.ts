import { Writable } from 'node:stream';
import { type Level, pino } from 'pino';

/**
 * A logger that keeps its JSON lines in `lines` (from `level` up), for tests that assert on logs or
 * print them when they fail. With `keep`, only the newest `keep` lines stay.
 */
export function capturingLogger(level: Level = 'info', keep = Number.POSITIVE_INFINITY) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      if (lines.length > keep) lines.shift();
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}
