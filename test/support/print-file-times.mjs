// Prints the per-file wall times file-timer.mjs recorded, slowest first, then the files that used
// the most CPU. A file over half of the per-file timeout (run-tests.sh: 180 s) is marked SLOW:
// every file must stay under half of it on 2 cores with another file running beside it. The CPU
// table is where the suite's time goes on 2 cores: the runner keeps them busy, so the whole run
// takes about the suite's CPU divided by the cores.
import { readFileSync } from 'node:fs';

const HALF_TIMEOUT_MS = 90_000;
const SHOWN = 15;

const [path, expected] = process.argv.slice(2);
const records = readFileSync(path, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const seconds = (ms) => (ms / 1000).toFixed(1).padStart(7);
const sum = (key) => records.reduce((total, record) => total + (record[key] ?? 0), 0);
const bySlowest = [...records].sort((a, b) => b.ms - a.ms);
const byCpu = [...records].sort((a, b) => (b.cpuMs ?? 0) - (a.cpuMs ?? 0));
const lines = [
  `\nper-file wall time (${records.length} of ${expected} files, ${(sum('ms') / 1000).toFixed(1)} s in all), slowest first:`,
  ...bySlowest.slice(0, SHOWN).map((record) => {
    const mark = record.ms > HALF_TIMEOUT_MS ? '  SLOW: over half the 180 s file timeout' : '';
    // Waiting for another file's clones counts against the timeout too; said, not subtracted.
    const waited = (record.lockWaitMs ?? 0) >= 1000;
    const lock = waited
      ? ` (${(record.lockWaitMs / 1000).toFixed(1)} s of it waiting for the host lock)`
      : '';
    return `${seconds(record.ms)} s  ${record.file}${lock}${mark}`;
  }),
  `\nper-file CPU, the file's process and the children it reaped (${(sum('cpuMs') / 1000).toFixed(1)} s in all), most first:`,
  ...byCpu
    .slice(0, SHOWN)
    .map(
      (record) =>
        `${seconds(record.cpuMs ?? 0)} s  ${record.file} (its own process ${(record.ownMs / 1000).toFixed(1)} s)`,
    ),
];
if (records.length < Number(expected)) {
  lines.push(
    `  (${Number(expected) - records.length} file(s) recorded no time: killed or timed out)`,
  );
}
process.stderr.write(`${lines.join('\n')}\n`);
