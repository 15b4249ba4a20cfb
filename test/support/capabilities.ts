// What a test file needs from the machine, in one place. A test that needs something missing is
// registered as skipped with the reason (node:test counts it), never silently absent — except
// under CI (root, packages installed), where a missing capability is a failure. `npm run
// test:unit` (CLAWDIE_TEST_SCOPE=unit) treats every capability below as absent: no Chromium, no
// root, no namespaces.
import { existsSync, readdirSync } from 'node:fs';
import { describe, test } from 'node:test';

export type Capability =
  | 'chromium'
  | 'root'
  | 'linux-clones'
  | 'x11'
  | 'ffmpeg'
  | 'sqlite3'
  | 'postgres';

/**
 * PostgreSQL's server binaries: CLAWDIE_POSTGRES_BIN, else the newest Debian `postgresql`
 * (/usr/lib/postgresql/<major>/bin), else FreeBSD's /usr/local/bin.
 */
export const postgresBin = process.env.CLAWDIE_POSTGRES_BIN || findPostgresBin();

function findPostgresBin(): string {
  const debian = '/usr/lib/postgresql';
  const majors = existsSync(debian)
    ? readdirSync(debian)
        .filter((entry) => /^\d+$/.test(entry))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return majors[0] ? `${debian}/${majors[0]}/bin` : '/usr/local/bin';
}

/** The browser a test drives itself with puppeteer (Debian's package unless overridden). */
export const chromiumPath = process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * A jail-service's browser in tests: the run's CLAWDIE_CHROMIUM_PATH when it sets one, else
 * nothing, so the service starts what ships (the headless shell when installed).
 */
export const jailChromiumEnv: Readonly<Record<string, string>> = process.env.CLAWDIE_CHROMIUM_PATH
  ? { CLAWDIE_CHROMIUM_PATH: process.env.CLAWDIE_CHROMIUM_PATH }
  : {};

const programs: Record<Capability, readonly string[]> = {
  chromium: [chromiumPath],
  root: [],
  'linux-clones': ['/usr/bin/bwrap', '/usr/sbin/nft', '/usr/sbin/ip', '/usr/bin/Xvfb'],
  x11: ['/usr/bin/Xvfb', '/usr/bin/xdotool', '/usr/bin/xwd'],
  ffmpeg: ['/usr/bin/ffmpeg', '/usr/bin/ffprobe'],
  sqlite3: ['/usr/bin/sqlite3'],
  postgres: [`${postgresBin}/initdb`, `${postgresBin}/postgres`],
};

export const unitScope = process.env.CLAWDIE_TEST_SCOPE === 'unit';

function missingOne(capability: Capability): string | null {
  if (unitScope) return `${capability}: not in the unit run (npm run test:unit)`;
  const isRoot = process.getuid?.() === 0;
  if ((capability === 'root' || capability === 'linux-clones') && !isRoot) {
    return `${capability}: needs root`;
  }
  // Under root the cluster runs as nobody through setpriv (util-linux): postgres refuses root.
  if (capability === 'postgres' && isRoot && !existsSync('/usr/bin/setpriv')) {
    return 'postgres: /usr/bin/setpriv missing (runs the cluster as nobody under root)';
  }
  if (capability === 'linux-clones' && process.platform !== 'linux')
    return 'linux-clones: not Linux';
  const absent = programs[capability].filter((program) => !existsSync(program));
  if (absent.length > 0) return `${capability}: ${absent.join(', ')} missing`;
  return null;
}

/** Null when every capability is there; else why not, one clause per missing capability. */
export function missingCapabilities(...capabilities: Capability[]): string | null {
  const reasons = capabilities.map(missingOne).filter((reason) => reason !== null);
  return reasons.length > 0 ? reasons.join('; ') : null;
}

/** A reason that may skip: under CI (outside the unit run) a missing capability fails instead. */
function skipReason(reason: string | null, what: string): string | false {
  if (reason === null) return false;
  if (process.env.CI && !unitScope) throw new Error(`${what} cannot run in CI: ${reason}`);
  return reason;
}

/** Options for `describe`/`it`: skip with the reason when a capability is missing. */
export function requires(...capabilities: Capability[]): { skip: string | false } {
  return { skip: skipReason(missingCapabilities(...capabilities), capabilities.join('+')) };
}

/**
 * For files that register their tests through helpers: when `reason` is set, registers one
 * skipped test named `what` carrying it (so the reporter counts it) and returns true.
 */
export function skipFile(what: string, reason: string | null): boolean {
  const skip = skipReason(reason, what);
  if (skip === false) return false;
  describe(what, () => {
    test('needs what this machine lacks', { skip }, () => {});
  });
  return true;
}
