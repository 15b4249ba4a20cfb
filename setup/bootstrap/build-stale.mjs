// Compiles the workspaces that run as JavaScript (the kit and the jail-service in clones, hostd,
// the controlplane) only when a source is newer than the last build, so `npm start` does not run
// tsc every time and clones never fall back to transpiling TypeScript at each start (≈ 0.5–2 s per clone).
// Then bundles the jail-service after the kit or it was rebuilt (jail-service/scripts/bundle.mjs),
// and the `clawdie` CLI from that output when it is older (bundle-cli.mjs).
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { refuseWhileRunning } from './running-processes.mjs';

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

const BUNDLE_STAMP = join('controlplane', 'dist', 'bundle', '.bundle-stamp');
const INSTALL_STAMP = join('node_modules', '.clawdie-install-stamp');

/**
 * Null when the CLI bundle is newer than every workspace's build and the npm install, whose code
 * it holds, and than its bundler (setup/bootstrap/bundle-cli.mjs) and cache writer
 * (controlplane/bin/load-bundle.mjs); else the reason.
 */
export function bundleStaleReason(root) {
  const stampPath = join(root, BUNDLE_STAMP);
  if (!existsSync(stampPath)) return 'the clawdie CLI bundle has never been built';
  const bundled = statSync(stampPath).mtimeMs;
  const inputs = [
    ...BUILT_WORKSPACES.map((workspace) => join(workspace, STAMP)),
    INSTALL_STAMP,
    join('setup', 'bootstrap', 'bundle-cli.mjs'),
    // It writes the code cache: what it evaluates is what the cache holds.
    join('controlplane', 'bin', 'load-bundle.mjs'),
  ];
  const newer = inputs.find(
    (input) => existsSync(join(root, input)) && statSync(join(root, input)).mtimeMs > bundled,
  );
  return newer ? `${newer} is newer than the bundle` : null;
}

/**
 * Builds every stale workspace with the pinned tsc, then the CLI bundle when it is older than
 * them; returns the workspaces built (and `bundle` when it was). Exits when a build fails, and
 * before any work while a Clawdie process of this checkout runs (running-processes.mjs); a
 * failed bundle only leaves the CLI unbundled.
 */
export function buildStale(root, { run, say }) {
  const built = [];
  // Once, before the first build or bundle: nothing is rebuilt under a running server or hostd.
  let checked = false;
  const beforeWork = (work) => {
    if (!checked) refuseWhileRunning(root, work, { say });
    checked = true;
  };
  for (const workspace of BUILT_WORKSPACES) {
    const reason = staleReason(root, workspace);
    if (reason === null) continue;
    beforeWork(`building ${workspace} (${reason})`);
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
  if (built.includes('kit') || built.includes('jail-service'))
    bundleJailService(root, { run, say });
  // A workspace rebuilt just now always rebundles: its stamp may share the bundle stamp's mtime.
  const reason = built.length > 0 ? `${built.join(', ')} rebuilt` : bundleStaleReason(root);
  if (reason !== null) {
    beforeWork(`bundling the clawdie CLI (${reason})`);
    say(`bundling the clawdie CLI (${reason}) ...`);
    const bundler = join(root, 'setup', 'bootstrap', 'bundle-cli.mjs');
    const result = run([process.execPath, bundler, root]);
    if (result.ok) {
      mkdirSync(dirname(join(root, BUNDLE_STAMP)), { recursive: true });
      writeFileSync(join(root, BUNDLE_STAMP), `${new Date().toISOString()}\n`);
      built.push('bundle');
    } else {
      // Not fatal: without the bundle the clawdie command runs controlplane/dist/cli.js (slower).
      rmSync(dirname(join(root, BUNDLE_STAMP)), { recursive: true, force: true });
      say(`bundling the clawdie CLI failed (${result.reason}); it runs unbundled (slower start).`);
    }
  }
  return built;
}

/**
 * The jail-service's one-file bundle (jail-service/scripts/bundle.mjs), which clones load much
 * faster. Not fatal: without a current bundle hostd runs jail-service/dist/main.js.
 */
function bundleJailService(root, { run, say }) {
  const result = run([process.execPath, join(root, 'jail-service', 'scripts', 'bundle.mjs')]);
  if (result.ok) return;
  rmSync(join(root, 'jail-service', 'dist', 'bundle'), { recursive: true, force: true });
  say(
    `bundling the jail-service failed (${result.reason}); clones run it unbundled (slower start).`,
  );
}
