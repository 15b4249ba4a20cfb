import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../jail-service/src/config.js';
import { ConfigError } from '../../jail-service/src/errors.js';

describe('jail-service loadConfig', () => {
  it('starts the headless shell when it is installed, the full browser for a desktop', () => {
    const shell = '/usr/lib/chromium/chromium-headless-shell';
    const looked: string[] = [];
    const exists = (path: string) => looked.push(path) > 0 && path === shell;
    assert.equal(loadConfig({ CLAWDIE_JAIL_TOKEN: 't' }, { exists }).chromiumPath, shell);
    assert.deepEqual(looked, [shell]);
    const desktop = { CLAWDIE_JAIL_TOKEN: 't', CLAWDIE_JAIL_HEADLESS: 'false' };
    assert.equal(loadConfig(desktop, { exists }).chromiumPath, '/usr/bin/chromium');
    const chosen = { CLAWDIE_JAIL_TOKEN: 't', CLAWDIE_CHROMIUM_PATH: '/opt/chrome/chrome' };
    assert.equal(loadConfig(chosen, { exists }).chromiumPath, '/opt/chrome/chrome');
  });

  it('applies the documented defaults and freezes the result', () => {
    const config = loadConfig({ CLAWDIE_JAIL_TOKEN: 'secret' }, { exists: () => false });
    assert.deepEqual(
      { ...config, viewport: { ...config.viewport } },
      {
        token: 'secret',
        host: '127.0.0.1',
        port: 0,
        chromiumPath: '/usr/bin/chromium',
        cdpUrl: null,
        cdpTarget: null,
        viewport: { width: 1280, height: 800 },
        deviceScaleFactor: 1,
        screenshotQuality: 80,
        actionTimeoutMs: 15_000,
        navigationTimeoutMs: 15_000,
        userDataDir: null,
        downloadDir: null,
        uploadDir: null,
        startUrl: 'about:blank',
        logLevel: 'info',
        proxyUrl: null,
        headless: true,
        chromiumSandbox: false,
        chromiumEnv: { PATH: '/usr/bin:/bin' },
        desktopDisplay: null,
        imageEncoder: 'auto',
        stopWithParent: false,
        evidence: true,
      },
    );
    assert.equal(Object.isFrozen(config), true);
    assert.equal(Object.isFrozen(config.viewport), true);
  });

  it('gives Chromium only its home, temporary files, locale and display, never the token', () => {
    const config = loadConfig({
      CLAWDIE_JAIL_TOKEN: 'secret',
      CLAWDIE_JAIL_CHROMIUM_SANDBOX: 'true',
      PATH: '/usr/bin',
      HOME: '/home/browser',
      TMPDIR: '/home/browser/tmp',
      DISPLAY: ':7',
      TZ: 'UTC',
      CLAWDIE_MODEL_API_KEY: 'not-for-chromium',
      UNRELATED: 'x',
    });
    assert.equal(config.chromiumSandbox, true);
    assert.deepEqual(config.chromiumEnv, {
      PATH: '/usr/bin',
      HOME: '/home/browser',
      TMPDIR: '/home/browser/tmp',
      DISPLAY: ':7',
      TZ: 'UTC',
    });
  });

  it('serves $DISPLAY as the desktop surface only with CLAWDIE_JAIL_DESKTOP=true', () => {
    const base = { CLAWDIE_JAIL_TOKEN: 'secret', DISPLAY: ':42' };
    assert.equal(loadConfig(base).desktopDisplay, null);
    assert.equal(loadConfig({ ...base, CLAWDIE_JAIL_DESKTOP: 'true' }).desktopDisplay, ':42');
    for (const DISPLAY of [undefined, 'host:0', ':1; rm -rf /']) {
      assert.throws(
        () => loadConfig({ ...base, DISPLAY, CLAWDIE_JAIL_DESKTOP: 'true' }),
        (error: unknown) =>
          error instanceof ConfigError &&
          /CLAWDIE_JAIL_DESKTOP=true needs DISPLAY/.test(error.message),
      );
    }
  });

  it('parses CLAWDIE_IMAGE_ENCODER (auto|sharp|js) and refuses anything else', () => {
    const base = { CLAWDIE_JAIL_TOKEN: 'secret' };
    for (const mode of ['auto', 'sharp', 'js'] as const) {
      assert.equal(loadConfig({ ...base, CLAWDIE_IMAGE_ENCODER: mode }).imageEncoder, mode);
    }
    assert.throws(
      () => loadConfig({ ...base, CLAWDIE_IMAGE_ENCODER: 'vips' }),
      (error: unknown) =>
        error instanceof ConfigError && /CLAWDIE_IMAGE_ENCODER/.test(error.message),
    );
  });

  it('parses every variable', () => {
    const config = loadConfig({
      CLAWDIE_JAIL_TOKEN: 'secret',
      CLAWDIE_JAIL_HOST: '0.0.0.0',
      CLAWDIE_JAIL_PORT: '9230',
      CLAWDIE_CHROMIUM_PATH: '/opt/chromium',
      CLAWDIE_JAIL_CDP_URL: 'ws://127.0.0.1:9222/devtools/browser/abc',
      CLAWDIE_JAIL_CDP_TARGET: 'https://mail.example/',
      CLAWDIE_JAIL_VIEWPORT: '1024X768',
      CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: '2',
      CLAWDIE_JAIL_SCREENSHOT_QUALITY: '60',
      CLAWDIE_JAIL_ACTION_TIMEOUT_MS: '5000',
      CLAWDIE_JAIL_NAVIGATION_TIMEOUT_MS: '7000',
      CLAWDIE_JAIL_USER_DATA_DIR: '/tmp/profile',
      CLAWDIE_JAIL_START_URL: 'https://example.com/',
      CLAWDIE_LOG_LEVEL: 'debug',
    });
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.port, 9230);
    assert.equal(config.chromiumPath, '/opt/chromium');
    assert.equal(config.cdpUrl, 'ws://127.0.0.1:9222/devtools/browser/abc');
    assert.equal(config.cdpTarget, 'https://mail.example/');
    assert.deepEqual({ ...config.viewport }, { width: 1024, height: 768 });
    assert.equal(config.deviceScaleFactor, 2);
    assert.equal(config.screenshotQuality, 60);
    assert.equal(config.actionTimeoutMs, 5000);
    assert.equal(config.navigationTimeoutMs, 7000);
    assert.equal(config.userDataDir, '/tmp/profile');
    assert.equal(config.startUrl, 'https://example.com/');
    assert.equal(config.logLevel, 'debug');
  });

  it('fails with a message naming both token variables when neither is set', () => {
    assert.throws(
      () => loadConfig({}),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.code === 'CONFIG_INVALID' &&
        error.message.includes('CLAWDIE_JAIL_TOKEN') &&
        error.message.includes('CLAWDIE_JAIL_TOKEN_FILE'),
    );
    assert.throws(() => loadConfig({ CLAWDIE_JAIL_TOKEN: '' }), /CLAWDIE_JAIL_TOKEN/);
  });

  it('reads and trims the token file, and names the variable when it cannot', () => {
    const files: Record<string, string> = { '/run/token': '  file-token\n' };
    const readFile = (path: string) => {
      const content = files[path];
      if (content === undefined) throw new Error('ENOENT: no such file');
      return content;
    };
    assert.equal(
      loadConfig({ CLAWDIE_JAIL_TOKEN_FILE: '/run/token' }, { readFile }).token,
      'file-token',
    );
    assert.equal(
      loadConfig({ CLAWDIE_JAIL_TOKEN: 'env', CLAWDIE_JAIL_TOKEN_FILE: '/run/token' }, { readFile })
        .token,
      'env',
    );
    assert.throws(
      () => loadConfig({ CLAWDIE_JAIL_TOKEN_FILE: '/missing' }, { readFile }),
      /CLAWDIE_JAIL_TOKEN_FILE=\/missing cannot be read: ENOENT/,
    );
    files['/run/empty'] = '\n';
    assert.throws(
      () => loadConfig({ CLAWDIE_JAIL_TOKEN_FILE: '/run/empty' }, { readFile }),
      /CLAWDIE_JAIL_TOKEN_FILE=\/run\/empty is empty/,
    );
  });

  it('refuses CLAWDIE_JAIL_CDP_TARGET without CLAWDIE_JAIL_CDP_URL: a tab is only chosen when attached', () => {
    assert.throws(
      () => loadConfig({ CLAWDIE_JAIL_TOKEN: 'secret', CLAWDIE_JAIL_CDP_TARGET: 'ABC123' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /CLAWDIE_JAIL_CDP_TARGET: needs CLAWDIE_JAIL_CDP_URL/.test(error.message),
    );
  });

  it('names every invalid variable at once', () => {
    assert.throws(
      () =>
        loadConfig({
          CLAWDIE_JAIL_TOKEN: 'secret',
          CLAWDIE_JAIL_PORT: '70000',
          CLAWDIE_JAIL_VIEWPORT: 'big',
          CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: '0',
          CLAWDIE_JAIL_SCREENSHOT_QUALITY: '101',
          CLAWDIE_JAIL_CDP_URL: 'localhost:9222',
          CLAWDIE_LOG_LEVEL: 'loud',
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        for (const name of [
          'CLAWDIE_JAIL_PORT',
          'CLAWDIE_JAIL_VIEWPORT',
          'CLAWDIE_JAIL_DEVICE_SCALE_FACTOR',
          'CLAWDIE_JAIL_SCREENSHOT_QUALITY',
          'CLAWDIE_JAIL_CDP_URL',
          'CLAWDIE_LOG_LEVEL',
        ]) {
          assert.match(error.message, new RegExp(`${name}: `), name);
        }
        return true;
      },
    );
  });

  it('treats empty variables as unset and ignores foreign ones', () => {
    const config = loadConfig({
      CLAWDIE_JAIL_TOKEN: 'secret',
      CLAWDIE_JAIL_PORT: '',
      CLAWDIE_JAIL_VIEWPORT: '',
      PATH: '/usr/bin',
    });
    assert.equal(config.port, 0);
    assert.deepEqual({ ...config.viewport }, { width: 1280, height: 800 });
  });
});
