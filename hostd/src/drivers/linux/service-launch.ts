import type { LinuxCloneNames } from './names.js';
import { bubblewrap, type ReadOnlyBind } from './sandbox.js';

/** The jail-service's environment inside a clone: its token, address, profile, proxy, display. */
export function serviceEnvironment(
  base: Readonly<Record<string, string>>,
  clone: {
    token: string;
    address: string;
    port: number;
    proxyUrl: string | null;
    display: string | null;
  },
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: '/usr/bin:/bin',
    HOME: '/profile',
    ...base,
    CLAWDIE_JAIL_TOKEN: clone.token,
    CLAWDIE_JAIL_HOST: clone.address,
    CLAWDIE_JAIL_PORT: String(clone.port),
    CLAWDIE_JAIL_USER_DATA_DIR: '/profile/chromium',
    // Downloads stay inside the clone's own writable area, destroyed with it.
    CLAWDIE_JAIL_DOWNLOAD_DIR: '/profile/downloads',
    CLAWDIE_JAIL_UPLOAD_DIR: '/profile/uploads',
  };
  if (clone.proxyUrl) env.CLAWDIE_JAIL_PROXY = clone.proxyUrl;
  if (clone.display) {
    env.DISPLAY = clone.display;
    env.CLAWDIE_JAIL_HEADLESS = 'false';
    // The jail-service also serves the display itself (xwd/xdotool inside the clone) at /desktop.
    env.CLAWDIE_JAIL_DESKTOP = 'true';
  }
  return env;
}

/**
 * The bubblewrap command for the service. bwrap runs as the clone's uid, so every bind source and
 * its parents must be traversable by that uid (hostd checks this at start, see code-access.ts).
 */
export function sandboxedService(options: {
  names: LinuxCloneNames;
  readOnly: readonly ReadOnlyBind[];
  display: string | null;
  cwd: string;
  argv: readonly string[];
}): string[] {
  return bubblewrap(
    {
      names: options.names,
      readOnly: options.readOnly,
      display: options.display ? Number(options.display.slice(1)) : null,
      cwd: options.cwd,
    },
    options.argv,
  );
}
