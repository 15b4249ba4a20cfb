// The order run-tests.sh starts the suite's files in. node:test starts them in the order it gets
// them, the next one whenever a file ends, with CLAWDIE_TEST_CONCURRENCY at once. Sorted by name,
// the files that use real Linux clones (the host lock, test/hostd/support/host-lock.ts: one such
// file at a time on a host) met in the same slots and waited for each other, each waiter holding a
// slot with nothing to run, and long files started last ran alone at the end.
//
// So the order is planned on a recent run's times (test/support/file-weights.txt: each file's
// wall time less its wait for the lock, and whether it takes the lock): the runner's slots are
// played forward, and whenever one frees, it gets the longest file the lock does not hold back —
// a lock file when the lock is free then (none is waiting for it), else the longest other file.
// A file the weights do not know counts as short (UNKNOWN_S) and is placed by that guess.
//
//   node test/support/order-files.mjs CONCURRENCY < files   the files in planned order
//   node test/support/order-files.mjs --update RECORDS      rewrites file-weights.txt from a
//                                                           run's records (CLAWDIE_TEST_TIMES_FILE)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEIGHTS = join(dirname(fileURLToPath(import.meta.url)), 'file-weights.txt');
const UNKNOWN_S = 5;

/** Per file: its own seconds and whether it takes the host lock. Bad lines are ignored. */
export function readWeights(text) {
  const weights = new Map();
  for (const line of text.split('\n')) {
    const match = /^(\d+(?:\.\d+)?)\s+(\S+)(\s+lock)?$/.exec(line.trim());
    if (match) weights.set(match[2], { seconds: Number(match[1]), lock: Boolean(match[3]) });
  }
  return weights;
}

/**
 * The files in the order to start them with `concurrency` slots, and the end the plan expects
 * (seconds). Deterministic: ties keep the given order.
 */
export function planOrder(files, weights, concurrency) {
  const weigh = (file) => weights.get(file) ?? { seconds: UNKNOWN_S, lock: false };
  const longestFirst = (list) =>
    list
      .map((file, index) => ({ file, index, ...weigh(file) }))
      .sort((a, b) => b.seconds - a.seconds || a.index - b.index);
  const locking = longestFirst(files.filter((file) => weigh(file).lock));
  const free = longestFirst(files.filter((file) => !weigh(file).lock));
  const slots = new Array(Math.max(1, concurrency)).fill(0);
  let lockFreeAt = 0;
  const order = [];
  while (locking.length + free.length > 0) {
    const slot = slots.indexOf(Math.min(...slots));
    const now = slots[slot];
    let next;
    if (locking.length > 0 && (lockFreeAt <= now || free.length === 0)) {
      next = locking.shift();
      const start = Math.max(now, lockFreeAt);
      lockFreeAt = start + next.seconds;
      slots[slot] = lockFreeAt;
    } else {
      next = free.shift();
      slots[slot] = now + next.seconds;
    }
    order.push(next.file);
  }
  return { order, expectedSeconds: Math.max(...slots) };
}

/** When the runner would end with `order` started in turn, by the same weights (seconds). */
export function simulateRun(order, weights, concurrency) {
  const slots = new Array(Math.max(1, concurrency)).fill(0);
  let lockFreeAt = 0;
  for (const file of order) {
    const { seconds, lock } = weights.get(file) ?? { seconds: UNKNOWN_S, lock: false };
    const slot = slots.indexOf(Math.min(...slots));
    const start = lock ? Math.max(slots[slot], lockFreeAt) : slots[slot];
    slots[slot] = start + seconds;
    if (lock) lockFreeAt = slots[slot];
  }
  return Math.max(...slots);
}

/** The weights file's text from a run's records: every file, by name. */
export function weightsText(records) {
  const lines = records
    .map((record) => {
      const own = Math.max(0, record.ms - (record.lockWaitMs ?? 0)) / 1000;
      return `${own.toFixed(1)} ${record.file}${record.lockWaitMs === undefined ? '' : ' lock'}`;
    })
    .sort((a, b) => a.split(' ')[1].localeCompare(b.split(' ')[1]));
  return [
    '# Seconds per test file in one `npm test` run, less its wait for the host lock, and `lock`',
    '# where it takes that lock. run-tests.sh plans the order it starts the files in from these',
    '# (test/support/order-files.mjs). Refresh after a change that moves them:',
    '#   CLAWDIE_TEST_TIMES_FILE=/tmp/t.jsonl npm test',
    '#   node test/support/order-files.mjs --update /tmp/t.jsonl',
    ...lines,
    '',
  ].join('\n');
}

function readRecords(path) {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [first, recordsPath] = process.argv.slice(2);
  if (first === '--update' && recordsPath) {
    writeFileSync(WEIGHTS, weightsText(readRecords(recordsPath)));
    process.stderr.write(`order-files: weights rewritten in ${WEIGHTS}\n`);
  } else if (/^[1-9]\d*$/.test(first ?? '') && recordsPath === undefined) {
    let weights = new Map();
    try {
      weights = readWeights(readFileSync(WEIGHTS, 'utf8'));
    } catch {
      // No weights: every file is a guess, so the files keep the order they came in.
    }
    const files = readFileSync(0, 'utf8').split('\n').filter(Boolean);
    process.stdout.write(`${planOrder(files, weights, Number(first)).order.join('\n')}\n`);
  } else {
    process.stderr.write('order-files: use CONCURRENCY (files on stdin) or --update RECORDS\n');
    process.exit(2);
  }
}
