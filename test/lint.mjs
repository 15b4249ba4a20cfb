#!/usr/bin/env node
// The lint step of `npm run check` (and so of `npm test`): `biome ci --error-on-warnings .`, whose
// exit code it passes on. Biome ships binaries only for the platforms its npm package lists as
// optional dependencies (@biomejs/cli-<platform>-<arch>[-musl]): none for FreeBSD. There the lint
// is skipped with the reason on stderr, never silently, and the typecheck and tests still run.
// `--no-skip` (`npm run lint`) fails instead of skipping. BIOME_BINARY (Biome's own override,
// e.g. a Biome built from source) always runs. Plain Node, no dependencies: it must also run where
// the lint cannot.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIOME_ARGS = ['ci', '--error-on-warnings', '.'];

const PLATFORM_NAMES = {
  freebsd: 'FreeBSD',
  openbsd: 'OpenBSD',
  netbsd: 'NetBSD',
  sunos: 'SunOS',
  linux: 'Linux',
  darwin: 'macOS',
};

/**
 * Whether Biome can run here, decided from its package's optional dependencies (one platform
 * package per platform and architecture it has a binary for).
 * @param {{ platform: string, arch: string, env: Record<string, string | undefined>,
 *   biomePackages: string[] }} options
 * @returns {{ action: 'run' } | { action: 'skip', reason: string }}
 */
export function lintDecision({ platform, arch, env, biomePackages }) {
  if (env.BIOME_BINARY) return { action: 'run' };
  const ours = [`@biomejs/cli-${platform}-${arch}`, `@biomejs/cli-${platform}-${arch}-musl`];
  if (biomePackages.some((name) => ours.includes(name))) return { action: 'run' };
  const forPlatform = biomePackages.filter((name) => name.startsWith(`@biomejs/cli-${platform}-`));
  const name = PLATFORM_NAMES[platform] ?? platform;
  const what = forPlatform.length === 0 ? name : `${name} ${arch}`;
  return {
    action: 'skip',
    reason: `lint skipped: Biome has no ${what} build; run \`npm run lint\` on Linux/macOS`,
  };
}

/** The names of Biome's platform packages, from its installed package.json. */
export function biomePlatformPackages(require = createRequire(import.meta.url)) {
  const manifest = JSON.parse(readFileSync(require.resolve('@biomejs/biome/package.json'), 'utf8'));
  return Object.keys(manifest.optionalDependencies ?? {});
}

function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const require = createRequire(import.meta.url);
  const decision = lintDecision({
    platform: process.platform,
    arch: process.arch,
    env: process.env,
    biomePackages: biomePlatformPackages(require),
  });
  if (decision.action === 'skip') {
    process.stderr.write(`${decision.reason}\n`);
    process.exit(process.argv.includes('--no-skip') ? 1 : 0);
  }
  const biome = require.resolve('@biomejs/biome/bin/biome');
  const result = spawnSync(process.execPath, [biome, ...BIOME_ARGS], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
