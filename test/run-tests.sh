#!/usr/bin/env bash
# Runs the test files with node:test. Node 20 finds no tests when given a directory, so the file
# list is explicit, and an empty list is a failure rather than a silent pass.
#   (no flag)  every test file except the soak suite — what `npm test` and CI run
#   --unit     the component tests (not e2e/, security/ or soak/) with CLAWDIE_TEST_SCOPE=unit:
#              tests needing Chromium, root or namespaces register as skipped with their reason
#              (no browser, no root, < 60 s on 2 cores)
#   --soak     test/soak/ only: leak and kill runs at full size (`npm run test:soak`), 30 min a file
# Each file's wall time is printed at the end, slowest first (test/support/file-timer.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."

timeout_ms=180000
case "${1:-}" in
  --unit)
    export CLAWDIE_TEST_SCOPE=unit
    mapfile -t files < <(find test -name '*.test.ts' -not -path 'test/soak/*' \
      -not -path 'test/e2e/*' -not -path 'test/security/*' | sort) ;;
  --soak)
    timeout_ms=1800000
    mapfile -t files < <(find test/soak -name '*.test.ts' | sort) ;;
  "")
    mapfile -t files < <(find test -name '*.test.ts' -not -path 'test/soak/*' | sort) ;;
  *)
    echo "run-tests: unknown option $1 (use --unit or --soak)" >&2
    exit 2 ;;
esac

if [[ ${#files[@]} -eq 0 ]]; then
  echo "run-tests: no test files found under test/ — refusing to report success" >&2
  exit 1
fi

echo "run-tests: ${#files[@]} test files" >&2
CLAWDIE_TEST_TIMES=$(mktemp)
export CLAWDIE_TEST_TIMES
trap 'rm -f "$CLAWDIE_TEST_TIMES"' EXIT
status=0
node --conditions=source --import tsx --import ./test/support/file-timer.mjs --test \
  --test-concurrency=2 --test-force-exit --test-timeout="$timeout_ms" "${files[@]}" || status=$?
node test/support/print-file-times.mjs "$CLAWDIE_TEST_TIMES" "${#files[@]}" || true
exit "$status"
