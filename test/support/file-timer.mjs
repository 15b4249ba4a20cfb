// Preloaded (`--import`) into every test process by run-tests.sh: each test file's process appends
// its own wall time (module loading included) and CPU time to $CLAWDIE_TEST_TIMES when it exits,
// so the run can end with per-file tables (print-file-times.mjs). Only node:test's per-file child
// processes record; the runner's parent process does not.
import { appendFileSync, readFileSync } from 'node:fs';

const out = process.env.CLAWDIE_TEST_TIMES;
const file = process.argv[1];
// A file of the compiled tree (test/support/test-tree.mjs) is named by its source.
if (out && /\.test\.[jt]s$/.test(file ?? '') && process.env.NODE_TEST_CONTEXT) {
  process.on('exit', (code) => {
    const name = file.slice(file.indexOf('/test/') + 1).replace(/\.js$/, '.ts');
    const own = process.cpuUsage();
    const ownMs = (own.user + own.system) / 1000;
    const record = {
      file: name,
      ms: performance.now(),
      // When it ended (epoch ms): with `ms`, where the file sat in the run's timeline.
      end: Date.now(),
      cpuMs: ownMs + reapedChildrenMs(),
      ownMs,
      // Waited for the host lock (test/hostd/support/host-lock.ts); absent: never asked for it.
      lockWaitMs: globalThis[Symbol.for('clawdie.test.hostLockWaitMs')],
      code,
    };
    appendFileSync(out, `${JSON.stringify(record)}\n`);
  });
}

/**
 * CPU of the children this process has waited for, theirs included (Chromium, hostd, clones,
 * CLIs): fields 16 and 17 of /proc/self/stat, in clock ticks (100 a second on Linux). 0 where
 * there is no /proc (FreeBSD): the table then shows the test process's own CPU only.
 */
function reapedChildrenMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: field 3 is fields[0], so cutime (16) and cstime (17) are fields[13], [14].
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}
