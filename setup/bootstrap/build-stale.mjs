// Compiles the workspaces that run as JavaScript (the kit and the jail-service in clones, hostd,
// the controlplane) only when a source is newer than the last build, so `npm start` does not run
// tsc every time and clones never fall back to transpiling TypeScript at each start (≈ 0.5–2 s per clone).
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** In dependency order: each build reads the declarations of the ones before it. */
export const BUILT_WORKSPACES = ['kit', 'jail-service', 'hostd', 'controlplane'];
const STAMP = join('dist', '.build-stamp');

function newestSource(dir) {
  let newest = { path: null, mtimeMs: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const candidate = entry.isDirectory()
      ? newestSource(path)
      : { path, mtimeMs: statSync(path).mtimeMs };
    if (candidate.mtimeMs > newest.mtimeMs) newest = candidate;
  }
  return newest;
}

/** Null when `<workspace>/dist` is newer than every input of its build; else the reason. */
export function staleReason(root, workspace) {
  const dir = join(root, workspace);
  const stampPath = join(dir, STAMP);
  if (!existsSync(stampPath)) return `${workspace}/dist has never been built`;
  const built = statSync(stampPath).mtimeMs;
  const inputs = [
    newestSource(join(dir, 'src')),
    ...['package.json', 'tsconfig.build.json', '../tsconfig.base.json'].map((file) => ({
      path: join(dir, file),
      mtimeMs: statSync(join(dir, file)).mtimeMs,
    })),
  ];
  const newer = inputs.find((input) => input.mtimeMs > built);
  return newer ? `${newer.path.slice(root.length + 1)} changed since the last build` : null;
}

/** Builds every stale workspace with the pinned tsc; returns the ones built. Exits on failure. */
export function buildStale(root, { run, say }) {
  const built = [];
  for (const workspace of BUILT_WORKSPACES) {
    const reason = staleReason(root, workspace);
    if (reason === null) continue;
    say(`building ${workspace} (${reason}) ...`);
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    const result = run([tsc, '-p', join(workspace, 'tsconfig.build.json')]);
    if (!result.ok) {
      say(`building ${workspace} failed (${result.reason}); the compiler's messages are above.`);
      process.exit(1);
    }
    writeFileSync(join(root, workspace, STAMP), `${new Date().toISOString()}\n`);
    built.push(workspace);
  }
  return built;
}
