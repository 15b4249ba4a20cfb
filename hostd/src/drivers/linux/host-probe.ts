// What this Linux host allows, checked once: bubblewrap (required), network namespaces with ip and
// nft (else reduced isolation: no network layer), writable cgroups (else reduced: no limits).
import { access, constants, mkdir } from 'node:fs/promises';
import type { CommandRunner } from '@clawdie/kit/runner';
import { type CloneIsolation, JailDriverError } from '../jail-driver.js';
import { type CgroupLayout, prepareCgroups } from './cgroups.js';
import { IP, NFT } from './network.js';
import { BWRAP, NSENTER, SETPRIV } from './sandbox.js';

export interface HostCapabilities {
  netns: boolean;
  cgroups: CgroupLayout;
  isolation: CloneIsolation;
}

export interface ProbeOptions {
  runner: CommandRunner;
  stateRoot: string;
  cgroupRoot: string;
  cgroupGroup: string;
}

const UNSHARE = '/usr/bin/unshare';

/** Throws HOST_UNSUPPORTED when even the reduced level is impossible (no bubblewrap, no setpriv). */
export async function probeHost(options: ProbeOptions): Promise<HostCapabilities> {
  for (const program of [BWRAP, SETPRIV]) {
    if (!(await executable(program))) {
      throw new JailDriverError(
        'HOST_UNSUPPORTED',
        `${program} is missing (apt-get install bubblewrap util-linux)`,
      );
    }
  }
  await mkdir(options.stateRoot, { recursive: true, mode: 0o711 });
  const reasons: string[] = [];
  const netns = await probeNetns(options.runner, reasons);
  const { layout, problem } = await prepareCgroups(options.cgroupRoot, options.cgroupGroup);
  if (problem) reasons.push(`no resource limits: ${problem}`);
  return {
    netns,
    cgroups: layout,
    isolation: { level: reasons.length === 0 ? 'full' : 'reduced', reasons },
  };
}

async function probeNetns(runner: CommandRunner, reasons: string[]): Promise<boolean> {
  const missing = [];
  for (const program of [IP, NFT, NSENTER, UNSHARE]) {
    if (!(await executable(program))) missing.push(program);
  }
  if (missing.length > 0) {
    reasons.push(
      `no network namespace: ${missing.join(', ')} missing (apt-get install iproute2 nftables); egress is enforced by the proxy only and the jail-service listens on host loopback`,
    );
    return false;
  }
  const result = await runner.run([UNSHARE, '--net', '/bin/true'], { timeoutMs: 5000 });
  if (result.exitCode !== 0) {
    reasons.push(
      `no network namespace: unshare --net failed (${result.stderr.trim() || result.exitCode}; needs root or CAP_SYS_ADMIN + CAP_NET_ADMIN); egress is enforced by the proxy only and the jail-service listens on host loopback`,
    );
    return false;
  }
  return true;
}

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}
