// System packages for the bootstrap: which programs each command needs, and installing the
// Debian packages that provide them (apt-get, as root) or printing the one exact line to run.
import { existsSync } from 'node:fs';

/**
 * Programs, the Debian package of each, and who needs it: `test` (npm test), `start` (npm start),
 * `start-root` (npm start as root on Linux, which runs hostd and its clones).
 */
export function systemNeeds(env) {
  return [
    {
      program: env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium',
      pkg: 'chromium',
      modes: ['test', 'start'],
    },
    // hostd's Linux driver: per-clone netns + nftables, bubblewrap sandbox, Xvfb display.
    { program: '/usr/bin/bwrap', pkg: 'bubblewrap', modes: ['test', 'start-root'] },
    { program: '/usr/sbin/nft', pkg: 'nftables', modes: ['test', 'start-root'] },
    { program: '/usr/sbin/ip', pkg: 'iproute2', modes: ['test', 'start-root'] },
    { program: '/usr/bin/Xvfb', pkg: 'xvfb', modes: ['test', 'start-root'] },
    // The Xvfb desktop operator: input, screen capture, a real X11 app for its e2e.
    { program: '/usr/bin/xdotool', pkg: 'xdotool', modes: ['test', 'start-root'] },
    { program: '/usr/bin/xwd', pkg: 'x11-apps', modes: ['test', 'start-root'] },
    { program: '/usr/bin/xedit', pkg: 'x11-apps', modes: ['test'] },
    // Task recordings: screencast frames → MP4; the e2e checks them with ffprobe.
    { program: '/usr/bin/ffmpeg', pkg: 'ffmpeg', modes: ['test', 'start-root'] },
  ];
}

/** Every Debian package `npm test` needs: the README's install line for normal users. */
export function testPackages(env = {}) {
  const needs = systemNeeds(env).filter((need) => need.modes.includes('test'));
  return [...new Set(needs.map((need) => need.pkg))];
}

export function missingNeeds(env, modes) {
  return systemNeeds(env).filter(
    (need) => need.modes.some((needed) => modes.includes(needed)) && !existsSync(need.program),
  );
}

/** Installs what `modes` need (root with apt-get), else prints the exact line and exits 1. */
export function ensureSystemPackages({ env, modes, isRoot, run, say }) {
  const missing = missingNeeds(env, modes);
  if (missing.length === 0) return;
  const pkgs = [...new Set(missing.map((need) => need.pkg))];
  const names = missing.map((need) => `${need.program} (Debian package ${need.pkg})`).join(', ');
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    say(`missing: ${names}.`);
    say(`install them with: sudo apt-get install -y ${pkgs.join(' ')}`);
    say('or point CLAWDIE_CHROMIUM_PATH at an existing Chromium binary.');
    process.exit(1);
  }
  say(`installing Debian packages: ${pkgs.join(' ')} ...`);
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = run(['apt-get', 'update', '-qq'], { env: aptEnv });
  const install = update.ok
    ? run(['apt-get', 'install', '-y', '-qq', ...pkgs], { env: aptEnv })
    : update;
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
