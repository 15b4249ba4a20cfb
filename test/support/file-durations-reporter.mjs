// node:test reporter that prints each test file's test time at the end of a run, slowest first,
// so a slow file is visible. A file over half of the per-file timeout (run-tests.sh: 180 s) is
// marked SLOW: files must stay under half of it on 2 cores beside another file.
const HALF_TIMEOUT_MS = 90_000;
const SHOWN = 15;

export default async function* fileDurations(source) {
  const perFile = new Map();
  for await (const event of source) {
    // The run's closing diagnostics ("tests N", …): print now, since --test-force-exit ends the
    // process before the event stream closes.
    if (event.type === 'test:diagnostic' && event.data.nesting === 0) {
      if (event.data.message.startsWith('tests ')) yield* table(perFile);
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (nesting !== 0 || !file || details?.duration_ms === undefined) continue;
    const name = file.slice(file.indexOf('/test/') + 1);
    perFile.set(name, (perFile.get(name) ?? 0) + details.duration_ms);
  }
}

function* table(perFile) {
  const rows = [...perFile].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  yield `\nper-file test time (${rows.length} files, ${(total / 1000).toFixed(1)} s in all), slowest first:\n`;
  for (const [name, ms] of rows.slice(0, SHOWN)) {
    const mark = ms > HALF_TIMEOUT_MS ? '  SLOW: over half the 180 s file timeout' : '';
    yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${name}${mark}\n`;
  }
}
