// Picks and builds the JailDriver for this host from the config (FreeBSD joins here later).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostdConfig } from '../config.js';
import type { CommandRunner } from '../runner/command-runner.js';
import type { ProcessLauncher } from '../runner/process-launcher.js';
import type { JailDriver } from './jail-driver.js';
import { LinuxDriver } from './linux/linux-driver.js';

export interface DriverDeps {
  runner: CommandRunner;
  launcher: ProcessLauncher;
  onServiceLine?: (name: string, line: string) => void;
}

export function createDriver(config: HostdConfig, deps: DriverDeps): JailDriver {
  const service = jailServiceCommand();
  return new LinuxDriver({
    ...deps,
    stateRoot: config.stateDir,
    cgroupRoot: config.cgroupRoot,
    cgroupGroup: config.cgroupName,
    uidBase: config.uidBase,
    servicePort: config.servicePort,
    proxyPort: config.proxyPort,
    serviceArgv: service.argv,
    readOnlyDirs: [service.root],
    serviceCwd: service.root,
    serviceEnv: { CLAWDIE_CHROMIUM_PATH: config.chromiumPath, CLAWDIE_LOG_LEVEL: 'warn' },
    templateProfile: config.templateProfile,
    healthTimeoutMs: config.startTimeoutMs,
  });
}

/**
 * The jail-service command: compiled JS in production, the TypeScript source under tsx when hostd
 * itself runs with the `source` condition. `root` is the workspace root bound read-only.
 */
export function jailServiceCommand(): { argv: string[]; root: string } {
  const entry = fileURLToPath(import.meta.resolve('@clawdie/jail-service/main'));
  const root = dirname(dirname(dirname(entry)));
  if (!entry.endsWith('.ts')) return { argv: [process.execPath, entry], root };
  const tsx = fileURLToPath(import.meta.resolve('tsx'));
  return { argv: [process.execPath, '--conditions=source', '--import', tsx, entry], root };
}
