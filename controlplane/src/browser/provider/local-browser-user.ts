// Who the local browser (the jail-service the controlplane starts without hostd) runs as. As
// root, a dedicated uid with no passwd entry, like hostd's clone uids, so Chromium keeps its own
// sandbox and a compromised renderer gets neither root nor the controlplane's files; its HOME
// (profile, temporary files) is a fresh 0700 directory of that uid.
import { readFileSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeAccessProblem } from '@clawdie/hostd/code-access';
import { removeDirsOfGoneProcesses } from '@clawdie/kit/runner';
import {
  type ProbeResult,
  probeUserNamespaces,
} from '../../platform/runner/user-namespace-probe.js';

/** The name an admin may give the uid in /etc/passwd; any other owner makes it unusable. */
export const LOCAL_BROWSER_USER_NAME = 'clawdie-browser';

export interface LocalBrowserUser {
  /** Null: the controlplane's own uid. */
  user: { uid: number; gid: number } | null;
  /** HOME and TMPDIR of the browser: 0700, owned by `user`. */
  home: string;
  /** True: Chromium runs with its own sandbox (no --no-sandbox). */
  sandbox: boolean;
  /** For the banner: who the browser runs as and, without the sandbox, why. */
  summary: string;
  /** Removes `home`. Never throws. */
  remove(): Promise<void>;
}

export interface LocalBrowserUserOptions {
  /** CLAWDIE_LOCAL_BROWSER_UID; 0 keeps the controlplane's uid. */
  uid: number;
  /** What the browser's uid must be able to reach: the jail-service code, node_modules, node. */
  codePaths: readonly string[];
  /** Injectable for tests. */
  currentUid?: number;
  passwd?: string;
  probe?: (user: { uid: number; gid: number } | null) => Promise<ProbeResult>;
}

/** Picks the browser's uid, makes its home and checks the sandbox. Never runs anything as root. */
export async function prepareLocalBrowserUser(
  options: LocalBrowserUserOptions,
): Promise<LocalBrowserUser> {
  const currentUid = options.currentUid ?? process.getuid?.() ?? -1;
  let user: { uid: number; gid: number } | null = null;
  let asRootBecause: string | null = null;
  if (currentUid === 0) {
    asRootBecause = dedicatedUidProblem(options);
    if (asRootBecause === null) user = { uid: options.uid, gid: options.uid };
  }
  await removeStaleHomes();
  const home = await mkdtemp(join(tmpdir(), `${HOME_PREFIX}${process.pid}-`));
  await chmod(home, 0o700);
  if (user) await chown(home, user.uid, user.gid);
  const probe =
    currentUid === 0 && user === null
      ? ({ ok: false, reason: `it runs as root: ${asRootBecause}` } as const)
      : await (options.probe ?? probeUserNamespaces)(user);
  const who = user ? `uid ${user.uid}` : currentUid === 0 ? 'root' : `uid ${currentUid}`;
  return {
    user,
    home,
    sandbox: probe.ok,
    summary: probe.ok
      ? `as ${who} with Chromium's sandbox`
      : `as ${who} with --no-sandbox because ${probe.reason}`,
    remove: () => rm(home, { recursive: true, force: true }).catch(() => undefined),
  };
}

const HOME_PREFIX = 'clawdie-browser-';

/** Homes left by a controlplane killed with SIGKILL (named after its pid, which is gone). */
async function removeStaleHomes(): Promise<void> {
  await removeDirsOfGoneProcesses(tmpdir(), new RegExp(`^${HOME_PREFIX}(\\d+)-`));
}

function dedicatedUidProblem(options: LocalBrowserUserOptions): string | null {
  if (options.uid === 0) return 'CLAWDIE_LOCAL_BROWSER_UID=0';
  const owner = passwdName(options.passwd ?? readPasswd(), options.uid);
  if (owner !== null && owner !== LOCAL_BROWSER_USER_NAME)
    return `uid ${options.uid} belongs to user ${owner}; set CLAWDIE_LOCAL_BROWSER_UID to an unused uid`;
  return codeAccessProblem(options.codePaths);
}

function readPasswd(): string {
  try {
    return readFileSync('/etc/passwd', 'utf8');
  } catch {
    return '';
  }
}

function passwdName(passwd: string, uid: number): string | null {
  for (const line of passwd.split('\n')) {
    const [name, , id] = line.split(':');
    if (name && Number(id) === uid && id !== '') return name;
  }
  return null;
}
