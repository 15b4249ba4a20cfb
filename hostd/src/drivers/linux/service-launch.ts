import type { LinuxCloneNames } from './names.js';
import { openBinds } from './open-binds.js';
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
  };
  if (clone.proxyUrl) env.CLAWDIE_JAIL_PROXY = clone.proxyUrl;
  if (clone.display) {
    env.DISPLAY = clone.display;
    env.CLAWDIE_JAIL_HEADLESS = 'false';
  }
  return env;
}

/**
 * The bubblewrap command for the service. bwrap runs as the clone's uid, which may not traverse
 * the checkout's parents (a mode-0700 directory), so hostd opens the code directories itself and
 * hands them over as fds 3, 4, …: pass `fds` to the launcher and call `close()` once spawned.
 */
export function sandboxedService(options: {
  names: LinuxCloneNames;
  readOnly: readonly ReadOnlyBind[];
  display: string | null;
  cwd: string;
  argv: readonly string[];
}): { command: string[]; fds: number[]; close(): void } {
  const opened = openBinds(options.readOnly);
  const command = bubblewrap(
    {
      names: options.names,
      readOnly: opened.binds,
      display: options.display ? Number(options.display.slice(1)) : null,
      cwd: options.cwd,
    },
    options.argv,
  );
  return { command, fds: opened.fds, close: opened.close };
}
