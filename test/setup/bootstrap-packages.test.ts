// The bootstrap's system-package plan on Debian (apt-get) and FreeBSD (pkg), as root and not,
// decided from a model of which programs exist.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planSystemPackages, testPackages } from '../../setup/bootstrap/system-packages.mjs';

const nothing = () => false;

describe('bootstrap system packages', () => {
  it('Debian as root: apt-get update, then one install of every missing package', () => {
    const plan = planSystemPackages({
      env: {},
      modes: ['test'],
      isRoot: true,
      platform: 'linux',
      exists: (path: string) => path === '/usr/bin/apt-get' || path === '/usr/bin/chromium',
    });
    assert.equal(plan.action, 'install');
    assert.deepEqual(plan.argvs, [
      ['apt-get', 'update', '-qq'],
      [
        'apt-get',
        'install',
        '-y',
        '-qq',
        'chromium-headless-shell',
        'bubblewrap',
        'nftables',
        'iproute2',
        'xvfb',
        'xdotool',
        'x11-apps',
        'ffmpeg',
        'sqlite3',
        'postgresql',
      ],
    ]);
  });

  it('Debian as a normal user: one exact sudo line and no install', () => {
    const plan = planSystemPackages({
      env: {},
      modes: ['start'],
      isRoot: false,
      platform: 'linux',
      exists: nothing,
    });
    assert.equal(plan.action, 'tell');
    assert.ok(plan.lines.includes('install them with: sudo apt-get install -y chromium'));
  });

  it('FreeBSD as root: pkg installs Chromium, vips, pkg-config and the build tools for native modules', () => {
    const plan = planSystemPackages({
      env: {},
      modes: ['start'],
      isRoot: true,
      platform: 'freebsd',
      exists: (path: string) => path === '/usr/sbin/pkg',
    });
    assert.equal(plan.action, 'install');
    assert.deepEqual(plan.argvs, [
      ['/usr/sbin/pkg', 'install', '-y', 'chromium', 'vips', 'pkgconf', 'gmake', 'python3'],
    ]);
  });

  it('FreeBSD npm start as root also needs Bastille, Xvfb, the X tools and ffmpeg', () => {
    const plan = planSystemPackages({
      env: {},
      modes: ['start', 'start-root'],
      isRoot: true,
      platform: 'freebsd',
      exists: (path: string) => path === '/usr/sbin/pkg',
    });
    assert.equal(plan.action, 'install');
    for (const pkg of ['bastille', 'xorg-vfbserver', 'xdotool', 'xwd', 'ffmpeg']) {
      assert.ok(plan.pkgs.includes(pkg), pkg);
    }
    assert.ok(!plan.pkgs.includes('bubblewrap'), 'no Linux-only packages on FreeBSD');
  });

  it('FreeBSD as a normal user: the sudo pkg line', () => {
    const plan = planSystemPackages({
      env: {},
      modes: ['test'],
      isRoot: false,
      platform: 'freebsd',
      exists: nothing,
    });
    assert.equal(plan.action, 'tell');
    assert.ok(
      plan.lines.some((line: string) =>
        line.startsWith('install them with: sudo pkg install -y chromium'),
      ),
    );
  });

  it('nothing to do when every program is there; CLAWDIE_CHROMIUM_PATH replaces the default', () => {
    const seen: string[] = [];
    const plan = planSystemPackages({
      env: { CLAWDIE_CHROMIUM_PATH: '/opt/chrome/chrome' },
      modes: ['start'],
      isRoot: true,
      platform: 'linux',
      exists: (path: string) => {
        seen.push(path);
        return true;
      },
    });
    assert.equal(plan.action, 'none');
    assert.ok(seen.includes('/opt/chrome/chrome'));
    assert.ok(!seen.includes('/usr/lib/chromium/chromium-headless-shell'), 'no shell is needed');
    assert.deepEqual(testPackages({}, 'linux'), [
      'chromium',
      'chromium-headless-shell',
      'bubblewrap',
      'nftables',
      'iproute2',
      'xvfb',
      'xdotool',
      'x11-apps',
      'ffmpeg',
      'sqlite3',
      'postgresql',
    ]);
  });
});
