#!/usr/bin/env bash
# Runs every test file under test/ (or, with --unit, all but e2e and integration) with node:test.
# Node 20 finds no tests when given a directory, so the file list is explicit, and an empty list
# is a failure rather than a silent pass.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--unit" ]]; then
  mapfile -t files < <(find test -name '*.test.ts' -not -path 'test/e2e/*' -not -path 'test/integration/*' | sort)
else
  mapfile -t files < <(find test -name '*.test.ts' | sort)
fi

if [[ ${#files[@]} -eq 0 ]]; then
  echo "run-tests: no test files found under test/ — refusing to report success" >&2
  exit 1
fi

echo "run-tests: ${#files[@]} test files" >&2
exec node --conditions=source --import tsx --test --test-concurrency=2 --test-force-exit \
  --test-timeout=180000 "${files[@]}"
