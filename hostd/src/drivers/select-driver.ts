// Builds the JailDriver the config picked (from the platform, or CLAWDIE_HOSTD_DRIVER): the
// FreeBSD driver with its host layout from the config, or the Linux driver.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NODE_FLAGS } from '@clawdie/jail-service/node-flags';
import { currentBundle } from '@clawdie/jail-service/service-bundle';
import type { CommandRunner, ProcessLauncher } from '@clawdie/kit/runner';
import type { HostdConfig } from '../config.js';
import { FreeBsdDriver } from './freebsd/freebsd-driver.js';
import type { HealthCheck } from './freebsd/health-check.js';
import type { HostFiles } from './freebsd/host-files.js';
import { defaultFreeBsdLayout, type FreeBsdLayout } from './freebsd/names.js';
import { type JailDriver, JailDriverError } from './jail-driver.js';
import { codeAccessProblem } from './linux/code-access.js';
import { LinuxDriver } from './linux/linux-driver.js';

export interface DriverDeps {
  runner: CommandRunner;
  launcher: ProcessLauncher;
  onServiceLine?: (name: string, line: string) => void;
  /** Receives a warning when clones must run the jail-service from TypeScript (slow start). */
  onNotice?: (message: string) => void;
  /** FreeBSD only: the host's files (default node:fs) — the fake FreeBSD host's in tests. */
  files?: HostFiles;
  /** FreeBSD only: how the in-jail service's health is probed (default: fetch its URL). */
  healthCheck?: HealthCheck;
}

/** The driver `config.driver` names, built from the config. */
export function createDriver(config: HostdConfig, deps: DriverDeps): JailDriver {
  if (config.driver === 'freebsd') {
    return new FreeBsdDriver({
      runner: deps.runner,
      layout: freeBsdLayout(config),
      healthTimeoutMs: config.startTimeoutMs,
      taskLogs: config.taskLogs,
      ...(deps.files ? { files: deps.files } : {}),
      ...(deps.healthCheck ? { healthCheck: deps.healthCheck } : {}),
    });
  }
  return createLinuxDriver(config, deps);
}

/** The FreeBSD driver's layout: the config's host preparation over the driver's defaults. */
export function freeBsdLayout(config: HostdConfig): FreeBsdLayout {
  return Object.freeze({
    ...defaultFreeBsdLayout,
    ...config.freebsd,
    logDir: config.taskLogs.dir,
    namespace: config.namespace,
    servicePort: config.servicePort,
    proxyPort: config.proxyPort,
  });
}

/**
 * The Linux clones' jail-service environment: CLAWDIE_CHROMIUM_PATH only when hostd's own is set
 * (else each service picks: the headless shell when installed; jail-service's chromium-binary.ts).
 */
export function linuxServiceEnv(config: HostdConfig): Record<string, string> {
  return {
    ...(config.chromiumPath ? { CLAWDIE_CHROMIUM_PATH: config.chromiumPath } : {}),
    CLAWDIE_LOG_LEVEL: 'warn',
    // Chromium's own sandbox inside the clone's, where bubblewrap lets it nest a namespace.
    CLAWDIE_JAIL_CHROMIUM_SANDBOX: 'auto',
  };
}

function createLinuxDriver(config: HostdConfig, deps: DriverDeps): JailDriver {
  const service = jailServiceCommand();
  if (service.notice) deps.onNotice?.(service.notice);
  const problem = codeAccessProblem(service.binds.map((bind) => bind.source));
  if (problem) throw new JailDriverError('HOST_UNSUPPORTED', problem);
  return new LinuxDriver({
    runner: deps.runner,
    launcher: deps.launcher,
    ...(deps.onServiceLine ? { onServiceLine: deps.onServiceLine } : {}),
    stateRoot: config.stateDir,
    cgroupRoot: config.cgroupRoot,
    cgroupGroup: config.cgroupName,
    uidBase: config.uidBase,
    namespace: config.namespace,
    servicePort: config.servicePort,
    proxyPort: config.proxyPort,
    serviceArgv: service.argv,
    readOnlyDirs: service.binds,
    serviceCwd: service.cwd,
    serviceEnv: linuxServiceEnv(config),
    templateProfile: config.templateProfile,
    healthTimeoutMs: config.startTimeoutMs,
    taskLogs: config.taskLogs,
  });
}

export interface JailServiceCommand {
  /** The command as seen inside the sandbox (paths under SANDBOX_CODE_DIR). */
  argv: string[];
  /** The workspace root on the host. */
  root: string;
  /** What to bind read-only: the service's package and node_modules, at SANDBOX_CODE_DIR. */
  binds: { source: string; target: string }[];
  /** Working directory inside the sandbox. */
  cwd: string;
  /** True when clones run the compiled `dist/main.js`. */
  compiled: boolean;
  /** Why clones fall back to TypeScript under tsx (≈1 s slower per clone start); null otherwise. */
  notice: string | null;
}

/**
 * The jail-service command: its one-file bundle while current (service-bundle.ts), else the
 * compiled JS whenever `jail-service/dist/main.js` exists and no source
 * file is newer than its compiled counterpart (`npm run build --workspace @clawdie/jail-service`);
 * else — only possible when hostd itself runs with the `source` condition — the TypeScript source
 * under tsx, with a notice saying so. Inside the sandbox /tmp is private, so tsx cannot reuse a
 * transform cache and every clone start pays the whole transpile.
 */
export function jailServiceCommand(): JailServiceCommand {
  const entry = fileURLToPath(import.meta.resolve('@clawdie/jail-service/main'));
  const packageDir = dirname(dirname(entry));
  const root = dirname(packageDir);
  const kitDir = join(root, 'kit');
  const { map, ...inside } = sandboxView(root, [packageDir, kitDir]);
  const dists = [join(packageDir, 'dist'), join(kitDir, 'dist')];
  if (!entry.endsWith('.ts')) {
    return {
      ...inside,
      argv: map([
        process.execPath,
        ...SERVICE_NODE_FLAGS,
        currentBundle(packageDir, dists) ?? entry,
      ]),
      compiled: true,
      notice: null,
    };
  }
  const compiled = join(packageDir, 'dist', 'main.js');
  // The compiled service imports the compiled kit: both must be current.
  const stale =
    staleBuild(join(packageDir, 'src'), join(packageDir, 'dist')) ??
    staleBuild(join(kitDir, 'src'), join(kitDir, 'dist'), 'jail-api/index.js');
  if (stale === null) {
    return {
      ...inside,
      argv: map([
        process.execPath,
        ...SERVICE_NODE_FLAGS,
        currentBundle(packageDir, dists) ?? compiled,
      ]),
      compiled: true,
      notice: null,
    };
  }
  const tsx = fileURLToPath(import.meta.resolve('tsx'));
  return {
    ...inside,
    argv: map([
      process.execPath,
      ...SERVICE_NODE_FLAGS,
      '--conditions=source',
      '--import',
      tsx,
      entry,
    ]),
    compiled: false,
    notice: `clones run the jail-service from TypeScript under tsx (slow start): ${stale}; run \`npm run build --workspace @clawdie/jail-service\``,
  };
}

/** Where the service's code appears inside every clone's sandbox. */
export const SANDBOX_CODE_DIR = '/opt/clawdie';

/**
 * The service's packages (the jail-service and the kit it imports) and the workspace
 * node_modules, bound at SANDBOX_CODE_DIR rather than at their host paths: a checkout under a
 * private directory (e.g. `mktemp -d`, mode 0700) is not traversable by a clone's unprivileged
 * uid, while the bound directories themselves are.
 */
function sandboxView(root: string, packageDirs: string[]) {
  const binds = [
    ...packageDirs.map((dir) => ({ source: dir, target: join(SANDBOX_CODE_DIR, basename(dir)) })),
    { source: join(root, 'node_modules'), target: join(SANDBOX_CODE_DIR, 'node_modules') },
  ];
  const map = (argv: string[]) =>
    argv.map((arg) =>
      arg.startsWith(`${root}/`) ? join(SANDBOX_CODE_DIR, arg.slice(root.length + 1)) : arg,
    );
  return { root, binds, cwd: SANDBOX_CODE_DIR, map };
}

/**
 * Null when `dist/<entry>` exists and every `src/**.ts` has a `dist/**.js` at least as new; else
 * the first reason not.
 */
export function staleBuild(srcDir: string, distDir: string, entry = 'main.js'): string | null {
  if (!existsSync(join(distDir, entry))) return `${join(distDir, entry)} does not exist`;
  const walk = (dir: string): string | null => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = walk(path);
        if (found) return found;
        continue;
      }
      if (!entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
      const output = join(distDir, path.slice(srcDir.length + 1).replace(/\.ts$/, '.js'));
      const built = existsSync(output) ? statSync(output).mtimeMs : -1;
      if (built < statSync(path).mtimeMs) return `${output} is missing or older than ${path}`;
    }
    return null;
  };
  return walk(srcDir);
}
