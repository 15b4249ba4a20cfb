// Preloaded (`--import`) into every test process by run-tests.sh: each test file's process appends
// its own wall time (module loading included) to $CLAWDIE_TEST_TIMES when it exits, so the run can
// end with a per-file table (print-file-times.mjs). Only node:test's per-file child processes
// record; the runner's parent process does not.
import { appendFileSync } from 'node:fs';

const out = process.env.CLAWDIE_TEST_TIMES;
const file = process.argv[1];
// A file of the compiled tree (test/support/test-tree.mjs) is named by its source.
if (out && /\.test\.[jt]s$/.test(file ?? '') && process.env.NODE_TEST_CONTEXT) {
  process.on('exit', (code) => {
    const name = file.slice(file.indexOf('/test/') + 1).replace(/\.js$/, '.ts');
    const record = { file: name, ms: performance.now(), code };
    appendFileSync(out, `${JSON.stringify(record)}\n`);
  });
}
