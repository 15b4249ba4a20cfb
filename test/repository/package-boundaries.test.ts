// No workspace package reaches into another by a relative path (`../../hostd/src/...`): what a
// package shares it exports (`@clawdie/kit/runner`, `@clawdie/hostd/api`, ...), so the
// build of each package stays self-contained and its public surface stays explicit.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';

const PACKAGES = ['kit', 'controlplane', 'jail-service', 'hostd', 'setup'];
const SKIP = new Set(['node_modules', 'dist', 'data', 'drizzle']);
const SOURCE = /\.(ts|mts|mjs|js)$/;
/** Static and dynamic imports, re-exports and `import.meta.resolve` with a relative specifier. */
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bimport\.meta\.resolve\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** Each `file → specifier` whose target lies outside the package folder `root`. */
export function escapingImports(root: string, sources: Record<string, string>): string[] {
  const base = resolve(root);
  const found: string[] = [];
  for (const [file, text] of Object.entries(sources)) {
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? '';
      const target = resolve(dirname(file), specifier);
      if (target !== base && !target.startsWith(base + sep)) {
        found.push(`${relative('.', file)} → ${specifier}`);
      }
    }
  }
  return found;
}

describe('package boundaries', () => {
  it('the scanner sees a relative import into another package (static, dynamic, re-export)', () => {
    const file = resolve('setup/src/steps/example.ts');
    const found = escapingImports('setup', {
      [file]: [
        "import { ExecFileRunner } from '../../../hostd/src/runner/exec-file-runner.js';",
        "export type { Step } from '../../../hostd/src/steps.js';",
        "const late = await import('../../../controlplane/src/config.js');",
        "import { ok } from './step.js';",
      ].join('\n'),
    });
    assert.equal(found.length, 3, found.join('\n'));
  });

  for (const name of PACKAGES) {
    it(`${name}/ imports other workspaces only through their package exports`, () => {
      const sources = Object.fromEntries(
        files(name).map((file) => [resolve(file), readFileSync(file, 'utf8')]),
      );
      assert.ok(Object.keys(sources).length > 0, `no sources found under ${name}/`);
      assert.deepEqual(escapingImports(name, sources), []);
    });
  }
});
