// How run-tests.sh starts the suite's files: in two lanes, each longest first.
//
// The files that use real Linux clones take the host lock (test/hostd/support/host-lock.ts: one
// such file at a time on a host). Among the others, node:test gave them a slot in name order, and
// each then waited there for the lock with nothing to run: 188–277 s of the suite's slot time in a
// run, with the cores 1.1–1.4 busy of 2. So they run in a lane of their own, one at a time beside
// the others, and no slot of the other lane ever waits for the lock. Within each lane the longest
// files start first (node:test starts files in the order it gets them, the next whenever one
// ends), so no long file starts last and runs alone at the end.
//
// Which files take the lock, and how long each took, comes from a recent run
// (test/support/file-weights.txt: each file's wall time less its wait for the lock, and `lock`).
// A file the weights do not know counts as short (UNKNOWN_S), in the other lane.
//
//   node test/support/order-files.mjs --lock-lane < files   the lock lane, longest first
//   node test/support/order-files.mjs --other-lane < files  the other lane, longest first
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

/** The two lanes, each longest first; ties keep the given order. */
export function lanes(files, weights) {
  const weigh = (file) => weights.get(file) ?? { seconds: UNKNOWN_S, lock: false };
  const longestFirst = (list) =>
    list
      .map((file, index) => ({ file, index, seconds: weigh(file).seconds }))
      .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
      .map((entry) => entry.file);
  return {
    lock: longestFirst(files.filter((file) => weigh(file).lock)),
    other: longestFirst(files.filter((file) => !weigh(file).lock)),
  };
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
    '# where it takes that lock. run-tests.sh runs the `lock` files in a lane of their own and',
    '# starts each lane longest first (test/support/order-files.mjs). Refresh after a change that',
    '# moves them: CLAWDIE_TEST_TIMES_FILE=/tmp/t.jsonl npm test, then',
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
  const [flag, recordsPath] = process.argv.slice(2);
  if (flag === '--update' && recordsPath) {
    writeFileSync(WEIGHTS, weightsText(readRecords(recordsPath)));
    process.stderr.write(`order-files: weights rewritten in ${WEIGHTS}\n`);
  } else if ((flag === '--lock-lane' || flag === '--other-lane') && recordsPath === undefined) {
    let weights = new Map();
    try {
      weights = readWeights(readFileSync(WEIGHTS, 'utf8'));
    } catch {
      // No weights: one lane, the files in the order they came.
    }
    const files = readFileSync(0, 'utf8').split('\n').filter(Boolean);
    const lane = lanes(files, weights)[flag === '--lock-lane' ? 'lock' : 'other'];
    process.stdout.write(lane.length > 0 ? `${lane.join('\n')}\n` : '');
  } else {
    process.stderr.write(
      'order-files: use --lock-lane or --other-lane (files on stdin), or --update RECORDS\n',
    );
    process.exit(2);
  }
}
