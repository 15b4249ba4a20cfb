// The order run-tests.sh starts the suite's files in: the longest first, as a recent run measured
// them (test/support/file-weights.txt), then the rest as given. node:test starts files in the order
// it gets them, a new one whenever one ends; started last, a file of 60–100 s ran alone at the end
// of the run while the other slots stood empty (docs/performance.md, "Test suite").
//
//   node test/support/order-files.mjs < files          prints the files, longest first
//   node test/support/order-files.mjs --update RECORDS rewrites file-weights.txt from a run's
//                                                      records (CLAWDIE_TEST_TIMES_FILE=RECORDS)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEIGHTS = join(dirname(fileURLToPath(import.meta.url)), 'file-weights.txt');
/** Files shorter than this keep their place: their order barely moves the end of the run. */
const KEPT_FROM_S = 10;

/** Seconds of wall time per file, from the weights file; a missing file orders nothing. */
export function readWeights(text) {
  const weights = new Map();
  for (const line of text.split('\n')) {
    const match = /^(\d+(?:\.\d+)?)\s+(\S+)$/.exec(line.trim());
    if (match) weights.set(match[2], Number(match[1]));
  }
  return weights;
}

/** The files with the weighed ones first, heaviest first; the others keep their order. */
export function orderFiles(files, weights) {
  const weight = (file) => weights.get(file) ?? 0;
  const weighed = files.filter((file) => weight(file) > 0);
  const rest = files.filter((file) => weight(file) === 0);
  return [...weighed.sort((a, b) => weight(b) - weight(a)), ...rest];
}

function update(recordsPath) {
  const records = readFileSync(recordsPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((record) => record.ms >= KEPT_FROM_S * 1000)
    .sort((a, b) => b.ms - a.ms);
  const lines = records.map((record) => `${(record.ms / 1000).toFixed(1)} ${record.file}`);
  const head = [
    '# Wall seconds per test file in one `npm test` run, the files of 10 s or more; run-tests.sh',
    '# starts these first, longest first (test/support/order-files.mjs). Refresh after a change',
    '# that moves them: CLAWDIE_TEST_TIMES_FILE=/tmp/t.jsonl npm test, then',
    '# node test/support/order-files.mjs --update /tmp/t.jsonl',
  ];
  writeFileSync(WEIGHTS, `${[...head, ...lines].join('\n')}\n`);
  process.stderr.write(`order-files: ${lines.length} files weighed in ${WEIGHTS}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [flag, recordsPath] = process.argv.slice(2);
  if (flag === '--update' && recordsPath) update(recordsPath);
  else if (flag !== undefined) {
    process.stderr.write('order-files: use no argument (files on stdin) or --update RECORDS\n');
    process.exit(2);
  } else {
    let weights = new Map();
    try {
      weights = readWeights(readFileSync(WEIGHTS, 'utf8'));
    } catch {
      // No weights: the files run as given.
    }
    const files = readFileSync(0, 'utf8').split('\n').filter(Boolean);
    process.stdout.write(`${orderFiles(files, weights).join('\n')}\n`);
  }
}
