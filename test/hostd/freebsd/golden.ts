// Golden-file comparison: exact text match; `UPDATE_GOLDEN=1` rewrites the files instead.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function assertGolden(directory: string, name: string, lines: readonly string[]): void {
  const path = join(directory, name);
  const actual = `${lines.join('\n')}\n`;
  if (process.env.UPDATE_GOLDEN === '1') {
    writeFileSync(path, actual);
    return;
  }
  assert.ok(existsSync(path), `missing golden ${path}: run with UPDATE_GOLDEN=1`);
  assert.equal(actual, readFileSync(path, 'utf8'), `plan differs from ${path}`);
}
