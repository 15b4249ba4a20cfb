// One ChildRegistry per process, made by its entry and handed down: no module-level registry or
// launcher, and no exit hook but the registry's own (issue 13, point 4). A module-level registry
// (the old `export const controlplaneChildren = new ChildRegistry()`) fails here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOTS = ['kit/src', 'controlplane/src', 'hostd/src', 'jail-service/src', 'setup/src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const sources = ROOTS.flatMap(sourceFiles).map((file) => ({
  file,
  text: readFileSync(file, 'utf8'),
}));

/** Files containing `pattern`, sorted. */
function filesMatching(pattern: RegExp): string[] {
  return sources.filter(({ text }) => pattern.test(text)).map(({ file }) => file);
}

describe('process ownership', () => {
  it('no module-level ChildRegistry, launcher or runner instance in any package source', () => {
    const moduleLevel =
      /^(?:export\s+)?(?:const|let|var)\s+\w+\s*(?::[^=]+)?=\s*(?:new\s+(?:ChildRegistry|SpawnLauncher)\b|createControlplaneLauncher\()/m;
    assert.deepEqual(filesMatching(moduleLevel), []);
  });

  it('registries are made only by the process entries (and the controlplane launcher factory)', () => {
    assert.deepEqual(filesMatching(/new ChildRegistry\(/).sort(), [
      'controlplane/src/platform/runner/process-launcher.ts',
      'hostd/src/main.ts',
      'setup/src/cli.ts',
    ]);
    assert.deepEqual(filesMatching(/createControlplaneLauncher\(\)/).sort(), [
      'controlplane/src/ingress/cli/mcp-command.ts',
      'controlplane/src/ingress/cli/task-cli.ts',
      'controlplane/src/server.ts',
    ]);
  });

  it("the only process 'exit' hook is the ChildRegistry's own", () => {
    assert.deepEqual(filesMatching(/process\.(?:on|once|addListener)\(\s*['"]exit['"]/), [
      'kit/src/runner/child-registry.ts',
    ]);
  });
});
