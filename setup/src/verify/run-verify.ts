// Composition of `--verify-host`: hostd's config (the same CLAWDIE_HOSTD_* variables), hostd's
// driver selection and a CloneManager with no warm pool, exactly as hostd's main builds them.
import {
  CloneManager,
  createAddressPolicy,
  createDriver,
  type HostdConfig,
  type JailDriver,
  loadConfig,
} from '@clawdie/hostd/host-kit';
import { ExecFileRunner, type ProcessLauncher } from '@clawdie/kit/runner';
import { hostdEnvironment } from '../hostd-layout.js';
import { readHostFacts } from './host-facts.js';
import { type VerifyReport, verifyHost } from './verify-host.js';

export interface RunVerifyOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** Starts the clone's processes (the CLI entry's launcher, over its one ChildRegistry). */
  launcher?: ProcessLauncher;
  /** Replaces hostd's driver selection (tests: a rigged or fake-host driver). */
  createDriver?: (config: HostdConfig) => JailDriver;
  /** Extra report notes (e.g. what a fake host cannot show). */
  notes?: readonly string[];
}

function realDrivers(options: RunVerifyOptions) {
  if (!options.launcher) throw new Error('runVerifyHost needs a launcher or createDriver');
  return { runner: new ExecFileRunner(), launcher: options.launcher };
}

/** Throws HostdError CONFIG_INVALID on a bad configuration (the CLI exits 2). */
export async function runVerifyHost(options: RunVerifyOptions): Promise<VerifyReport> {
  const config = loadConfig(hostdEnvironment(options.env));
  const notes: string[] = [...(options.notes ?? [])];
  const driver =
    options.createDriver?.(config) ??
    createDriver(config, { ...realDrivers(options), onNotice: (message) => notes.push(message) });
  const addressPolicy = createAddressPolicy({
    internalExceptions: config.egressAllowInternal,
    allowPrivate: config.egressAllowPrivate,
  });
  if (config.egressAllowPrivate) notes.push('CLAWDIE_HOSTD_EGRESS_ALLOW_PRIVATE=true');
  if (addressPolicy.exceptions.length > 0) {
    notes.push(`CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL=${addressPolicy.exceptions.join(',')}`);
  }
  const manager = new CloneManager({
    addressPolicy,
    driver,
    defaultLimits: config.limits,
    defaultDisplay: config.display,
    proxyPort: config.proxyPort,
    poolSize: 0,
    leaseRetentionMs: config.leaseRetentionMs,
    startTimeoutMs: config.startTimeoutMs,
  });
  return verifyHost({
    driver,
    manager,
    facts: readHostFacts(),
    notes,
    timeoutMs: config.startTimeoutMs,
  });
}
