// The repository's directory, wherever this file runs from: the suite loads compiled copies of the
// tests from a tree of copies (test/support/test-tree.mjs) whose one linked file is the top
// package.json, so its real path names the repository (to spawn from, run git in, read from).
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const repositoryRoot = dirname(
  realpathSync(join(import.meta.dirname, '..', '..', 'package.json')),
);
