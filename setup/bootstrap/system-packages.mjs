// System packages for the bootstrap: which programs each command needs, and installing the
// Debian packages that provide them (apt-get, as root) or printing the one exact line to run.
import { existsSync } from 'node:fs';

/**
 * Programs, the package of each on Debian (apt) and FreeBSD (pkg), and who needs it: `test` (npm
 * test), `start` (npm start), `start-root` (npm start as root, which runs hostd and its clones).
 * A need with no package for a platform does not apply there (FreeBSD has no bubblewrap or
 * nftables: its clones are jails, prepared by `clawdie setup`).
 */
const NEEDS = [
  {
    linux: ['/usr/bin/chromium', 'chromium'],
    freebsd: ['/usr/local/bin/chrome', 'chromium'],
    modes: ['test', 'start'],
    chromium: 'full',
  },
  // Headless clones start Debian's headless shell: half the cold start, 0.6× the memory. Without
  // it they start the full browser, so a normal user's `npm start` does not stop for it. FreeBSD
  // has no such package; its jails start the full browser.
  {
    linux: ['/usr/lib/chromium/chromium-headless-shell', 'chromium-headless-shell'],
    modes: ['test', 'start-root'],
    chromium: 'shell',
  },
  // hostd's Linux driver: per-clone netns + nftables, bubblewrap sandbox, Xvfb display.
  { linux: ['/usr/bin/bwrap', 'bubblewrap'], modes: ['test', 'start-root'] },
  { linux: ['/usr/sbin/nft', 'nftables'], modes: ['test', 'start-root'] },
  { linux: ['/usr/sbin/ip', 'iproute2'], modes: ['test', 'start-root'] },
  {
    linux: ['/usr/bin/Xvfb', 'xvfb'],
    freebsd: ['/usr/local/bin/Xvfb', 'xorg-vfbserver'],
    modes: ['test', 'start-root'],
  },
  // The Xvfb desktop operator: input, screen capture, a real X11 app for its e2e.
  {
    linux: ['/usr/bin/xdotool', 'xdotool'],
    freebsd: ['/usr/local/bin/xdotool', 'xdotool'],
    modes: ['test', 'start-root'],
  },
  {
    linux: ['/usr/bin/xwd', 'x11-apps'],
    freebsd: ['/usr/local/bin/xwd', 'xwd'],
    modes: ['test', 'start-root'],
  },
  {
    linux: ['/usr/bin/xedit', 'x11-apps'],
    freebsd: ['/usr/local/bin/xedit', 'xedit'],
    modes: ['test'],
  },
  // Task recordings: screencast frames → MP4; the e2e checks them with ffprobe.
  {
    linux: ['/usr/bin/ffmpeg', 'ffmpeg'],
    freebsd: ['/usr/local/bin/ffmpeg', 'ffmpeg'],
    modes: ['test', 'start-root'],
  },
  // The sqlite3 shell: tests back up a live server with it, as an admin would by habit.
  {
    linux: ['/usr/bin/sqlite3', 'sqlite3'],
    freebsd: ['/usr/local/bin/sqlite3', 'sqlite3'],
    modes: ['test'],
  },
  // PostgreSQL: the store contract tests run each repository against a throwaway cluster too.
  {
    linux: ['/usr/lib/postgresql/15/bin/postgres', 'postgresql'],
    freebsd: ['/usr/local/bin/postgres', 'postgresql15-server'],
    modes: ['test'],
  },
  // FreeBSD native modules. better-sqlite3 has no FreeBSD prebuilt: `npm ci` compiles it with
  // node-gyp, which needs python3 (>= 3.6), gmake (node-gyp's make on *BSD) and base clang++
  // (C++20). sharp 0.35 loads its WebAssembly build there (@img/sharp-freebsd-wasm32, installed
  // by npm); a native sharp build (`npm run build` in node_modules/sharp, with node-addon-api and
  // node-gyp added) needs libvips >= 8.18.7 found by pkg-config. Without any sharp the image
  // paths use the pure-JS codec (CLAWDIE_IMAGE_ENCODER=auto). Bastille makes the browser
  // template (`clawdie setup`).
  { freebsd: ['/usr/local/lib/libvips.so', 'vips'], modes: ['test', 'start'] },
  { freebsd: ['/usr/local/bin/pkg-config', 'pkgconf'], modes: ['test', 'start'] },
  { freebsd: ['/usr/local/bin/gmake', 'gmake'], modes: ['test', 'start'] },
  { freebsd: ['/usr/local/bin/python3', 'python3'], modes: ['test', 'start'] },
  { freebsd: ['/usr/local/bin/bastille', 'bastille'], modes: ['start-root'] },
];

/** How each platform installs packages; null where the bootstrap cannot. */
const INSTALLERS = {
  linux: { program: '/usr/bin/apt-get', line: 'apt-get install -y', name: 'Debian package' },
  freebsd: { program: '/usr/sbin/pkg', line: 'pkg install -y', name: 'FreeBSD package' },
};

/**
 * The needs of this platform as `{ program, pkg, modes }`. CLAWDIE_CHROMIUM_PATH replaces the
 * full browser and drops the headless shell (the jail-service then starts only that binary).
 */
export function systemNeeds(env, platform = process.platform) {
  const chosen = env.CLAWDIE_CHROMIUM_PATH;
  return NEEDS.filter((need) => need[platform] && !(chosen && need.chromium === 'shell')).map(
    (need) => {
      const [program, pkg] = need[platform];
      return { program: (need.chromium === 'full' && chosen) || program, pkg, modes: need.modes };
    },
  );
}

/** Every package `npm test` needs here: the README's install line for normal users. */
export function testPackages(env = {}, platform = process.platform) {
  const needs = systemNeeds(env, platform).filter((need) => need.modes.includes('test'));
  return [...new Set(needs.map((need) => need.pkg))];
}

export function missingNeeds(env, modes, platform = process.platform, exists = existsSync) {
  return systemNeeds(env, platform).filter(
    (need) => need.modes.some((needed) => modes.includes(needed)) && !exists(need.program),
  );
}

/**
 * @typedef {{ program: string, pkg: string, modes: string[] }} Need
 * @typedef {{ program: string, line: string, name: string }} Installer
 * @typedef {{ action: 'none', missing: Need[] }
 *   | { action: 'tell', missing: Need[], lines: string[] }
 *   | { action: 'install', missing: Need[], pkgs: string[], kind: string, installer: Installer,
 *       argvs: string[][] }} SystemPlan
 */

/**
 * What the bootstrap does about system packages, decided without side effects: nothing, install
 * (as root, with apt-get on Debian or pkg on FreeBSD: `argvs` in order), or tell the user the
 * exact line to run (`lines`) and stop.
 * @param {{ env: Record<string, string | undefined>, modes: string[], isRoot: boolean,
 *   platform?: string, exists?: (path: string) => boolean }} options
 * @returns {SystemPlan}
 */
export function planSystemPackages({
  env,
  modes,
  isRoot,
  platform = process.platform,
  exists = existsSync,
}) {
  const missing = missingNeeds(env, modes, platform, exists);
  if (missing.length === 0) return { action: 'none', missing };
  const installer = INSTALLERS[platform];
  const pkgs = [...new Set(missing.map((need) => need.pkg))];
  const kind = installer?.name ?? 'package';
  const names = missing.map((need) => `${need.program} (${kind} ${need.pkg})`).join(', ');
  if (!installer || !isRoot || !exists(installer.program)) {
    const lines = [`missing: ${names}.`];
    if (installer) lines.push(`install them with: sudo ${installer.line} ${pkgs.join(' ')}`);
    lines.push('or point CLAWDIE_CHROMIUM_PATH at an existing Chromium binary.');
    return { action: 'tell', missing, lines };
  }
  return {
    action: 'install',
    missing,
    pkgs,
    kind,
    installer,
    argvs: installCommands(platform, pkgs),
  };
}

/** The package manager's own commands, non-interactive (with installEnv). */
export function installCommands(platform, pkgs) {
  if (platform === 'freebsd') return [['/usr/sbin/pkg', 'install', '-y', ...pkgs]];
  return [
    ['apt-get', 'update', '-qq'],
    ['apt-get', 'install', '-y', '-qq', ...pkgs],
  ];
}

function installEnv(platform, env) {
  return platform === 'freebsd'
    ? { ...env, ASSUME_ALWAYS_YES: 'yes' }
    : { ...env, DEBIAN_FRONTEND: 'noninteractive' };
}

/** Carries out planSystemPackages; exits 1 with the exact line when it cannot install. */
export function ensureSystemPackages({
  env,
  modes,
  isRoot,
  run,
  say,
  platform = process.platform,
}) {
  const plan = planSystemPackages({ env, modes, isRoot, platform });
  if (plan.action === 'none') return;
  if (plan.action === 'tell') {
    for (const line of plan.lines) say(line);
    process.exit(1);
  }
  say(`installing ${plan.kind}s: ${plan.pkgs.join(' ')} ...`);
  for (const argv of plan.argvs) {
    const result = run(argv, { env: installEnv(platform, env) });
    if (!result.ok) {
      say(
        `${argv[0]} failed (${result.reason}); run: ${plan.installer.line} ${plan.pkgs.join(' ')}`,
      );
      process.exit(1);
    }
  }
  const stillMissing = plan.missing.filter((need) => !existsSync(need.program));
  if (stillMissing.length > 0) {
    const programs = stillMissing.map((need) => need.program).join(', ');
    say(`installed ${plan.pkgs.join(' ')}, but ${programs} is still missing.`);
    say('set CLAWDIE_CHROMIUM_PATH to the Chromium binary of this machine.');
    process.exit(1);
  }
}
