// One health poller, one `sleep`, one logger factory (issue 13, point 4), one SSE replay loop
// (issue 21): a second copy of any of them in a package source fails here, naming the file.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOTS = ['kit/src', 'controlplane/src', 'hostd/src', 'jail-service/src', 'setup/src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

const sources = ROOTS.flatMap(sourceFiles).map((file) => ({
  file,
  text: readFileSync(file, 'utf8'),
}));

function filesMatching(pattern: RegExp): string[] {
  return sources.filter(({ text }) => pattern.test(text)).map(({ file }) => file);
}

/** A retry loop: `for (;;)`, `while (...)` or a counted `for`, with a pause inside the file. */
const LOOP = /\bfor\s*\(\s*;;\s*\)|\bwhile\s*\(|\bfor\s*\(\s*let\b/;
const PAUSE = /sleep|setTimeout\(/i;

describe('one of each shared helper', () => {
  it('one health poller: only @clawdie/kit/timing loops over /health', () => {
    const pollers = sources
      .filter(({ text }) => /\/health\b/.test(text) && LOOP.test(text) && PAUSE.test(text))
      .map(({ file }) => file);
    assert.deepEqual(pollers, ['kit/src/timing/poll-health.ts']);
  });

  it('one sleep: no hand-rolled `await new Promise(... setTimeout(...))` pause', () => {
    assert.deepEqual(filesMatching(/await\s+new\s+Promise\(\s*\(?\w*\)?\s*=>\s*setTimeout\(/), []);
    assert.deepEqual(filesMatching(/export\s+(?:async\s+)?function\s+sleep\b/), [
      'kit/src/timing/sleep.ts',
    ]);
  });

  it('one logger factory: pino is constructed and configured only in the shared factory', () => {
    assert.deepEqual(filesMatching(/\bpino\s*\(|\bpino\.destination\(/), [
      'kit/src/logging/create-logger.ts',
    ]);
    assert.deepEqual(filesMatching(/\bredact\s*:/), []);
  });

  it('one SSE replay loop: only @clawdie/kit/sse replays history, then follows live', () => {
    // The loop's marks: a heartbeat comment and a write per history-or-live entry.
    assert.deepEqual(filesMatching(/: keep-alive/), ['kit/src/sse/replay-stream.ts']);
  });
});
