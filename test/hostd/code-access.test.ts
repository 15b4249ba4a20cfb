import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  codeAccessProblem,
  untraversableAncestors,
} from '../../hostd/src/drivers/linux/code-access.js';

describe('clone access to the jail-service code', () => {
  it('names every directory clone users cannot traverse, with the fix', () => {
    const root = mkdtempSync(join(tmpdir(), 'code-access-'));
    const code = join(root, 'jail-service');
    mkdirSync(code, { mode: 0o755 });
    chmodSync(root, 0o700);
    assert.deepEqual(untraversableAncestors(code), [root]);
    assert.match(codeAccessProblem([code]) ?? '', new RegExp(`chmod o\\+x ${root}`));
    chmodSync(root, 0o711);
    assert.deepEqual(untraversableAncestors(code), []);
    assert.equal(codeAccessProblem([code]), null);
  });
});
