// Prints the per-file wall times file-timer.mjs recorded, slowest first. A file over half of the
// per-file timeout (run-tests.sh: 180 s) is marked SLOW: every file must stay under half of it on
// 2 cores with another file running beside it.
import { readFileSync } from 'node:fs';

const HALF_TIMEOUT_MS = 90_000;
const SHOWN = 15;

const [path, expected] = process.argv.slice(2);
const records = readFileSync(path, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line))
  .sort((a, b) => b.ms - a.ms);
const total = records.reduce((sum, record) => sum + record.ms, 0);
const lines = [
  `\nper-file wall time (${records.length} of ${expected} files, ${(total / 1000).toFixed(1)} s in all), slowest first:`,
  ...records.slice(0, SHOWN).map((record) => {
    const mark = record.ms > HALF_TIMEOUT_MS ? '  SLOW: over half the 180 s file timeout' : '';
    return `${(record.ms / 1000).toFixed(1).padStart(7)} s  ${record.file}${mark}`;
  }),
];
if (records.length < Number(expected)) {
  lines.push(
    `  (${Number(expected) - records.length} file(s) recorded no time: killed or timed out)`,
  );
}
process.stderr.write(`${lines.join('\n')}\n`);
