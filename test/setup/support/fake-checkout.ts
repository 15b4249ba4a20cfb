// A checkout as the bootstrap sees it, in a temporary directory: a lock file, node_modules with a
// tsc, and (fakeWorkspaces) the four built workspaces, each with one source and never built.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function fakeCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-bootstrap-'));
  writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3}\n');
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', '.bin', 'tsc'), '');
  return dir;
}

/** The four built workspaces of `dir`, each with one source and never built. */
export function fakeWorkspaces(dir: string): void {
  writeFileSync(join(dir, 'tsconfig.base.json'), '{}');
  for (const workspace of ['kit', 'jail-service', 'hostd', 'controlplane']) {
    mkdirSync(join(dir, workspace, 'src'), { recursive: true });
    mkdirSync(join(dir, workspace, 'dist'), { recursive: true });
    writeFileSync(join(dir, workspace, 'src', 'main.ts'), '');
    writeFileSync(join(dir, workspace, 'package.json'), '{}');
    writeFileSync(join(dir, workspace, 'tsconfig.build.json'), '{}');
  }
}
