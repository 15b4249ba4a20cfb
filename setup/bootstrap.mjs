#!/usr/bin/env node
// Fresh-machine bootstrap for `npm start` and `npm test`. Plain Node ESM with no dependencies,
// because it runs before the npm packages are installed. Installs npm packages when the lock file changed and Debian
// packages (via apt-get, root only) when a required program is missing; otherwise explains
// exactly what to run and exits 1.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2] ?? 'test';

/** Programs the platform needs, the Debian package that provides each, and who needs it. */
const systemNeeds = [
  {
    program: process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium',
    pkg: 'chromium',
    modes: ['test', 'start'],
  },
  // hostd's Linux driver (per-clone netns + nftables, bubblewrap sandbox, Xvfb display). As root,
  // `npm start` runs hostd itself, so it needs them too (`start-root`); without root it cannot.
  { program: '/usr/bin/bwrap', pkg: 'bubblewrap', modes: ['test', 'start-root'] },
  { program: '/usr/sbin/nft', pkg: 'nftables', modes: ['test', 'start-root'] },
  { program: '/usr/sbin/ip', pkg: 'iproute2', modes: ['test', 'start-root'] },
  { program: '/usr/bin/Xvfb', pkg: 'xvfb', modes: ['test', 'start-root'] },
  // The Xvfb desktop operator (controlplane/src/desktop): input, screen capture, a real X11 app.
  { program: '/usr/bin/xdotool', pkg: 'xdotool', modes: ['test'] },
  { program: '/usr/bin/xwd', pkg: 'x11-apps', modes: ['test'] },
  { program: '/usr/bin/xedit', pkg: 'x11-apps', modes: ['test'] },
  // Task recordings (controlplane/src/recording): screencast frames → MP4; e2e checks with ffprobe.
  { program: '/usr/bin/ffmpeg', pkg: 'ffmpeg', modes: ['test', 'start-root'] },
];

function say(message) {
  process.stderr.write(`[clawdie bootstrap] ${message}\n`);
}

function run(argv, options = {}) {
  const result = spawnSync(argv[0], argv.slice(1), {
    cwd: root,
    stdio: ['ignore', 2, 2],
    ...options,
  });
  if (result.error) return { ok: false, reason: result.error.message };
  return { ok: result.status === 0, reason: `exit code ${result.status}` };
}

function checkNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) {
    say(`Node ${process.versions.node} is too old: Clawdie needs Node 20 or newer.`);
    process.exit(1);
  }
}

function ensureNpmPackages() {
  const lockPath = join(root, 'package-lock.json');
  const stampPath = join(root, 'node_modules', '.clawdie-lock-hash');
  const lockHash = createHash('sha256').update(readFileSync(lockPath)).digest('hex');
  const stamp = existsSync(stampPath) ? readFileSync(stampPath, 'utf8').trim() : '';
  if (stamp === lockHash && existsSync(join(root, 'node_modules', '.bin', 'tsc'))) return;
  say('installing npm packages (npm install, pinned by package-lock.json) ...');
  // Not `npm ci`: it insists on lock entries for every optional platform binary (Biome, sharp), and
  // mirrors that carry only Linux builds make it fail; `npm install` honours the exact pins.
  const result = run(['npm', 'install', '--no-audit', '--no-fund', '--loglevel=error']);
  if (!result.ok) {
    say(
      `npm install failed (${result.reason}). Check that the npm registry is reachable and retry.`,
    );
    process.exit(1);
  }
  writeFileSync(stampPath, `${lockHash}\n`);
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function ensureSystemPackages() {
  const modes =
    mode === 'start' && isRoot() && process.platform === 'linux' ? [mode, 'start-root'] : [mode];
  const missing = systemNeeds.filter(
    (need) => need.modes.some((needed) => modes.includes(needed)) && !existsSync(need.program),
  );
  if (missing.length === 0) return;
  const pkgs = [...new Set(missing.map((need) => need.pkg))];
  const names = missing.map((need) => `${need.program} (Debian package ${need.pkg})`).join(', ');
  if (!isRoot() || !existsSync('/usr/bin/apt-get')) {
    say(`missing: ${names}.`);
    say(`install them with: sudo apt-get install -y ${pkgs.join(' ')}`);
    say('or point CLAWDIE_CHROMIUM_PATH at an existing Chromium binary.');
    process.exit(1);
  }
  say(`installing Debian packages: ${pkgs.join(' ')} ...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = run(['apt-get', 'update', '-qq'], { env });
  const install = update.ok ? run(['apt-get', 'install', '-y', '-qq', ...pkgs], { env }) : update;
  if (!install.ok) {
    say(`apt-get failed (${install.reason}); run: apt-get install -y ${pkgs.join(' ')}`);
    process.exit(1);
  }
  const stillMissing = missing.filter((need) => !existsSync(need.program));
  if (stillMissing.length > 0) {
    say(
      `installed ${pkgs.join(' ')}, but ${stillMissing.map((need) => need.program).join(', ')} is still missing.`,
    );
    say('set CLAWDIE_CHROMIUM_PATH to the Chromium binary of this machine.');
    process.exit(1);
  }
}

checkNode();
ensureNpmPackages();
ensureSystemPackages();
