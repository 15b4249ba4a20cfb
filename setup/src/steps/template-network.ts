// Where the template jail's VNET attaches and which address it takes (`bastille create -V NAME
// RELEASE IP IF`). Flags (--interface, --template-ip) win; otherwise the host is read: the
// default route's interface and that interface's rc.conf setting. A host this cannot decide (no
// default route, a static address, nothing in rc.conf) gets a sentence naming the flag to pass,
// never a guess: `vtnet0`/`SYNCDHCP` were wrong on any other NIC or a static network.
//
// Output formats, read off-host (not run on a real host):
// - `route -n get default`: sbin/route/route.c print_getmsg() prints `  interface: NAME` (and
//   `destination:`, `gateway:`, `flags:` …); without a default route it exits non-zero.
// - `sysrc -n ifconfig_NAME`: usr.sbin/sysrc/sysrc prints the value alone (`DHCP`, `SYNCDHCP`,
//   `inet 192.0.2.10 netmask 255.255.255.0`, `inet 192.0.2.10/24`, `WPA DHCP` …); an unset
//   variable exits 1 with "sysrc: unknown variable 'ifconfig_NAME'" on stderr.
import type { FreeBsdSetupConfig } from '../config.js';
import { type Argv, probe, type StepContext } from './step.js';

export type TemplateNetwork = { iface: string; ip: string } | { problem: string };

export const defaultRouteArgv: Argv = ['/sbin/route', '-n', 'get', 'default'];
export const rcIfconfigArgv = (iface: string): Argv => [
  '/usr/sbin/sysrc',
  '-n',
  `ifconfig_${iface}`,
];

/** `  interface: em0` of `route -n get default`, or null. */
export function parseRouteInterface(stdout: string): string | null {
  return /^\s*interface:\s*(\S+)\s*$/m.exec(stdout)?.[1] ?? null;
}

/** The template's address for an interface configured as `value` in rc.conf, or why not. */
export function templateIpFor(iface: string, value: string | null): TemplateNetwork {
  const words = (value ?? '').trim().split(/\s+/);
  if (words.some((word) => /^(SYNC)?DHCP$/i.test(word))) return { iface, ip: 'SYNCDHCP' };
  const hint = `pass --template-ip a.b.c.d/nn (a free address on ${iface}'s network) or --template-ip SYNCDHCP when a DHCP server answers there`;
  if (value === null || value.trim() === '') {
    return {
      problem: `ifconfig_${iface} is not set in rc.conf, so the template's address cannot be chosen: ${hint}`,
    };
  }
  return {
    problem: `${iface} has a static address (ifconfig_${iface}="${value.trim()}"), so the template needs one of its own: ${hint}`,
  };
}

/** Decides the template's interface and address, reading the host only for what flags leave open. */
export async function resolveTemplateNetwork(
  context: StepContext,
  config: FreeBsdSetupConfig,
): Promise<TemplateNetwork> {
  let iface = config.networkInterface;
  if (iface === null) {
    const route = await probe(context, defaultRouteArgv);
    iface = route.exitCode === 0 ? parseRouteInterface(route.stdout) : null;
    if (iface === null) {
      const said = route.stderr.trim().split('\n')[0] ?? '';
      return {
        problem: `the host has no default route${said ? ` (${said})` : ''}, so the template's interface cannot be chosen: pass --interface IF`,
      };
    }
  }
  if (config.templateIp !== null) return { iface, ip: config.templateIp };
  const rc = await probe(context, rcIfconfigArgv(iface));
  return templateIpFor(iface, rc.exitCode === 0 ? rc.stdout : null);
}
