#!/bin/sh
# Runs the test files with node:test. Node 20 finds no tests when given a directory, so the file
# list is explicit, and an empty list is a failure rather than a silent pass. POSIX sh (dash,
# FreeBSD's sh): FreeBSD has no bash in its base system (test/repository/run-tests-posix.test.ts).
#   (no flag)  every test file except the soak suite — what `npm test` and CI run
#   --unit     the component tests (not e2e/, security/ or soak/) with CLAWDIE_TEST_SCOPE=unit:
#              tests needing Chromium, root or namespaces register as skipped with their reason
#              (no browser, no root; ≈ 6 min on 2 cores)
#   --soak     test/soak/ only: leak and kill runs at full size (`npm run test:soak`), 30 min a file
#   FILE...    after the flag (or none): only these test files, e.g. `sh test/run-tests.sh
#              test/setup/bootstrap.test.ts`; a file that does not exist is refused (exit 2)
# Each file's wall time is printed at the end, slowest first, then the files using the most CPU
# (test/support/file-timer.mjs; CLAWDIE_TEST_TIMES_FILE=path keeps every file's record).
# The files run as JavaScript compiled once for the run (test/support/test-tree.mjs), which also
# builds what is stale first, as npm test's bootstrap does.
set -eu
cd "$(dirname "$0")/.."

timeout_ms=180000
scope=all
case "${1:-}" in
  --unit) scope=unit; shift ;;
  --soak) scope=soak; timeout_ms=1800000; shift ;;
  -*)
    echo "run-tests: unknown option $1 (use --unit or --soak)" >&2
    exit 2 ;;
esac
[ "$scope" = unit ] && export CLAWDIE_TEST_SCOPE=unit

# Files run at once: CLAWDIE_TEST_CONCURRENCY, default 4. Two left the 2 cores ≈ 30 % idle (files
# that wait on pages, heartbeats and children); three ran the suite in 0.87× the time of two, four
# in 0.85× of three. Four once failed jail-service loads with ERR_NETWORK_CHANGED (a browser in the
# host's network while a clone test adds its links); the service now loads again after it
# (jail-service/src/browser/load-retry.ts; docs/performance.md, "Test suite").
concurrency=${CLAWDIE_TEST_CONCURRENCY:-4}
case "$concurrency" in
  ''|*[!0-9]*|0)
    echo "run-tests: CLAWDIE_TEST_CONCURRENCY=$concurrency: a whole number of at least 1" >&2
    exit 2 ;;
esac

# The file list, one path a line; test files have no spaces or newlines in their names.
if [ "$#" -gt 0 ]; then
  for file in "$@"; do
    case "$file" in
      -*) echo "run-tests: $file: options go first (use --unit or --soak)" >&2; exit 2 ;;
    esac
    if [ ! -f "$file" ]; then
      echo "run-tests: $file: no such test file" >&2
      exit 2
    fi
  done
  files=$(printf '%s\n' "$@")
else
  case "$scope" in
    unit) files=$(find test -name '*.test.ts' ! -path 'test/soak/*' ! -path 'test/e2e/*' \
            ! -path 'test/security/*' | sort) ;;
    soak) files=$(find test/soak -name '*.test.ts' | sort) ;;
    *) files=$(find test -name '*.test.ts' ! -path 'test/soak/*' | sort) ;;
  esac
fi

if [ -z "$files" ]; then
  echo "run-tests: no test files found under test/ — refusing to report success" >&2
  exit 1
fi
count=$(printf '%s\n' "$files" | wc -l | tr -d ' ')

echo "run-tests: $count test files" >&2
# Every temporary file and directory the run makes (the tests' mkdtemp, their children's: a
# jail-service's profile, a CLI's data dir) goes under one directory, removed when the run ends,
# so a run leaves nothing in /tmp whatever a test forgets. Mode 1777 like /tmp: PostgreSQL's
# server and the clones' users reach their own directories under it.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/clawdie-tests.XXXXXX")
chmod 1777 "$run_tmp"
export TMPDIR="$run_tmp"
CLAWDIE_TEST_TIMES=$run_tmp/file-times.jsonl
: > "$CLAWDIE_TEST_TIMES"
export CLAWDIE_TEST_TIMES
trap 'rm -rf "$run_tmp"' EXIT
# sh runs the EXIT trap on exit only: turn Ctrl-C and kill into an exit so the file goes too.
trap 'exit 130' INT
trap 'exit 143' TERM
old_ifs=$IFS
IFS='
'
set -f
# shellcheck disable=SC2086 # split on newlines only, no globbing: one argument a file
set -- $files
set +f
IFS=$old_ifs
# The tests reach nothing but loopback, so a CA bundle from the caller's environment serves no
# test, and node parses it at every start: ≈ 160 ms of CPU for each of the suite's node processes
# (docs/performance.md, "Test suite"). The install before the tests keeps it.
unset NODE_EXTRA_CA_CERTS
# The repository's files run from a tree compiled once for this run (test/support/test-tree.mjs):
# plain JavaScript, no loader hooks in the test processes. A file outside the repository (the
# runner's own test gives it fixtures in /tmp) is loaded under tsx.
trap 'node test/support/test-tree.mjs --remove $$; rm -rf "$run_tmp"' EXIT
loaded=$(node test/support/test-tree.mjs $$ "$@") || exit 1
# shellcheck disable=SC2086 # as above: one argument a line
IFS='
'
set -f
set -- $loaded
set +f
IFS=$old_ifs
hooks=
case "$loaded" in
  *.ts|*.ts'
'*) hooks='--conditions=source --import tsx' ;;
esac
status=0
# Node 20's `--test` starts the files in name order whatever order they come in. Two lanes (the
# files that take the host lock one at a time beside four others) measured slower on 2 cores, not
# faster: the cores are the limit, not the lock (docs/performance.md, "Test suite").
# shellcheck disable=SC2086 # $hooks is empty or three words
node $hooks --import ./test/support/lazy-source-maps.mjs --import ./test/support/file-timer.mjs \
  --import ./test/support/reap-on-timeout.mjs \
  --test --test-concurrency="$concurrency" --test-force-exit --test-timeout="$timeout_ms" "$@" || status=$?
node test/support/print-file-times.mjs "$CLAWDIE_TEST_TIMES" "$count" || true
# CLAWDIE_TEST_TIMES_FILE=path keeps every file's record (JSON lines: wall and CPU milliseconds).
if [ -n "${CLAWDIE_TEST_TIMES_FILE:-}" ]; then
  cp "$CLAWDIE_TEST_TIMES" "$CLAWDIE_TEST_TIMES_FILE" || true
fi
exit "$status"
