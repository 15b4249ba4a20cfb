// No import cycles, type-only ones included: the agent's types live in agent/loop-types.ts and
// every package's source tree is acyclic.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importCycles } from '../../../support/import-graph.js';

for (const root of ['kit/src', 'controlplane/src', 'hostd/src', 'jail-service/src', 'setup/src']) {
  test(`${root} has no import cycles (type-only imports count)`, () => {
    assert.deepEqual(importCycles(root), []);
  });
}
