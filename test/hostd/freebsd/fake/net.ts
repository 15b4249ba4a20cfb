// `/sbin/ifconfig` (epair create/rename/address/destroy, -l) and `/sbin/pfctl` (anchors, states,
// info) of the fake host, with the real tools' messages and ALTQ stderr noise.
import { parseAnchorFile } from './pf-anchor.js';
import {
  type FakeInterface,
  type FakeState,
  fail,
  ok,
  type ToolResult,
  UnsupportedCommandError,
} from './state.js';

const BASE_INTERFACES = ['vtnet0', 'lo0', 'pflog0'];
const ALTQ_NOISE = 'No ALTQ support in kernel\nALTQ related functions disabled\n';
const noSuch = (name: string) => fail(`ifconfig: interface ${name} does not exist`);

export function ifconfigTool(state: FakeState, argv: readonly string[]): ToolResult {
  const args = argv.slice(1);
  const [first = '', second, third] = args;
  if (args.length === 1 && first === '-l') {
    const inHost = [...state.interfaces.entries()].filter(([, i]) => i.vnetOf === null);
    return ok(`${[...BASE_INTERFACES, ...inHost.map(([name]) => name)].join(' ')}\n`);
  }
  if (args.length === 2 && second === 'create' && /^epair\d+$/.test(first)) {
    return createEpair(state, first);
  }
  if (args.length === 3 && second === 'name') return rename(state, first, third ?? '');
  if (args.length === 2 && second === 'destroy') return destroy(state, first);
  if (args.length === 1) {
    const iface = state.interfaces.get(first);
    if (!iface || iface.vnetOf !== null) return noSuch(first);
    return ok(showInterface(first, iface));
  }
  const address = /^inet (\d+\.\d+\.\d+\.\d+\/\d+) up group (\S+)$/.exec(args.slice(1).join(' '));
  if (address) {
    const iface = state.interfaces.get(first);
    if (!iface || iface.vnetOf !== null) return noSuch(first);
    iface.inet = address[1] ?? null;
    iface.groups.add(address[2] ?? '');
    return ok();
  }
  throw new UnsupportedCommandError(argv);
}

/**
 * `ifconfig NAME` as FreeBSD 14 prints an epair end (sbin/ifconfig/ifconfig.c status(): the flags
 * line with metric and mtu; af_inet.c in_status_nl(): `inet A netmask 0xMASK broadcast B`, the
 * CIDR form only with `-f inet:cidr`; ifgroup.c: one `groups:` line listing every group).
 */
function showInterface(name: string, iface: FakeInterface): string {
  const flags =
    iface.inet === null
      ? 'flags=1008802<BROADCAST,SIMPLEX,MULTICAST,LOWER_UP>'
      : 'flags=1008843<UP,BROADCAST,RUNNING,SIMPLEX,MULTICAST,LOWER_UP>';
  const lines = [
    `${name}: ${flags} metric 0 mtu 1500`,
    '\toptions=8<VLAN_MTU>',
    `\tether 02:00:00:00:${iface.unit.slice(-2)}:${name.endsWith('b') ? '0b' : '0a'}`,
  ];
  if (iface.inet !== null) {
    const [address = '', bits = '32'] = iface.inet.split('/');
    const mask = Number(bits) === 0 ? 0 : (0xffffffff << (32 - Number(bits))) >>> 0;
    const ip = address.split('.').reduce((n, octet) => (n << 8) + Number(octet), 0) >>> 0;
    const broadcast = (ip | (~mask >>> 0)) >>> 0;
    const dotted = [24, 16, 8, 0].map((shift) => (broadcast >>> shift) & 255).join('.');
    lines.push(
      `\tinet ${address} netmask 0x${mask.toString(16).padStart(8, '0')} broadcast ${dotted}`,
    );
  }
  lines.push(
    `\tgroups: ${[...iface.groups].join(' ')}`,
    '\tmedia: Ethernet 10Gbase-T (10Gbase-T <full-duplex>)',
    '\tstatus: active',
    '\tnd6 options=29<PERFORMNUD,IFDISABLED,AUTO_LINKLOCAL>',
  );
  return `${lines.join('\n')}\n`;
}

function createEpair(state: FakeState, unit: string): ToolResult {
  if ([...state.interfaces.values()].some((i) => i.unit === unit)) {
    return fail(`ifconfig: SIOCIFCREATE2 (${unit}): File exists`);
  }
  const a = `${unit}a`;
  const b = `${unit}b`;
  state.interfaces.set(a, { unit, peer: b, groups: new Set(['epair']), inet: null, vnetOf: null });
  state.interfaces.set(b, { unit, peer: a, groups: new Set(['epair']), inet: null, vnetOf: null });
  return ok(`${a}\n`);
}

function rename(state: FakeState, from: string, to: string): ToolResult {
  const iface = state.interfaces.get(from);
  if (!iface || iface.vnetOf !== null) return noSuch(from);
  if (state.interfaces.has(to)) return fail('ifconfig: ioctl SIOCSIFNAME (set name): File exists');
  // The kernel copies the new name into IFNAMSIZ (16) bytes including its NUL.
  if (to.length > 15) return fail('ifconfig: ioctl SIOCSIFNAME (set name): File name too long');
  state.interfaces.delete(from);
  state.interfaces.set(to, iface);
  const peer = state.interfaces.get(iface.peer);
  if (peer) peer.peer = to;
  return ok(`${to}\n`);
}

function destroy(state: FakeState, name: string): ToolResult {
  const iface = state.interfaces.get(name);
  if (!iface || iface.vnetOf !== null) return noSuch(name);
  // Destroying either end of an epair destroys both, even the end inside a vnet.
  state.interfaces.delete(name);
  state.interfaces.delete(iface.peer);
  return ok();
}

export function pfctlTool(state: FakeState, argv: readonly string[]): ToolResult {
  const args = argv.slice(1).join(' ');
  if (args === '-s info') {
    const status = state.pfEnabled ? 'Enabled' : 'Disabled';
    return ok(`Status: ${status} for 0 days 01:02:03           Debug: Urgent\n`, ALTQ_NOISE);
  }
  if (args === '-sr') return ok(state.mainRules.map((r) => `${r}\n`).join(''), ALTQ_NOISE);
  if (args === '-ss') return ok(state.pfStates.map((s) => `${s}\n`).join(''), ALTQ_NOISE);
  const parent = /^-a (\S+) -s Anchors$/.exec(args)?.[1];
  if (parent !== undefined) {
    const children = [...state.anchors.keys()].filter((a) => a.startsWith(`${parent}/`)).sort();
    return ok(children.map((a) => `  ${a}\n`).join(''), ALTQ_NOISE);
  }
  const kill = /^-k (0\.0\.0\.0\/0 -k )?(\S+)$/.exec(args);
  if (kill) {
    // `-k IP` kills states from IP; `-k 0.0.0.0/0 -k IP` those from anywhere to IP.
    const ip = kill[2] ?? '';
    const toward = kill[1] !== undefined;
    const before = state.pfStates.length;
    state.pfStates = state.pfStates.filter((line) => {
      const [source = '', destination = ''] = line.split(' -> ');
      return !(toward ? destination : source).includes(`${ip}:`);
    });
    const killed = before - state.pfStates.length;
    return ok('', `killed ${killed} states from 1 sources and 0 destinations\n`);
  }
  const anchorOp = /^-a (\S+) (-f (\S+)|-sr|-F rules|-F Tables)$/.exec(args);
  if (!anchorOp) throw new UnsupportedCommandError(argv);
  const anchor = anchorOp[1] ?? '';
  const op = anchorOp[2] ?? '';
  if (op === '-sr') return ok((state.anchors.get(anchor) ?? []).join(''), ALTQ_NOISE);
  if (op === '-F rules') {
    state.anchors.delete(anchor);
    return ok('', `${ALTQ_NOISE}rules cleared\n`);
  }
  if (op === '-F Tables') return ok('', `${ALTQ_NOISE}0 tables deleted.\n`);
  const path = anchorOp[3] ?? '';
  const file = state.files.get(path);
  if (!file) {
    // parse.y parse_config(): warn("cannot open the main config file!"), then pfctl_rules()'s line.
    return fail(
      `pfctl: cannot open the main config file!: No such file or directory\npfctl: Syntax error in config file: pf rules not loaded`,
    );
  }
  // Loading rules does not need PF enabled (pfctl.c: -f loads with DIOCXBEGIN/DIOCXCOMMIT whatever
  // the status; only -e/-d change it). A syntax error loads nothing (pfctl_rules(): "Syntax error
  // in config file: pf rules not loaded", exit 1).
  const parsed = parseAnchorFile(path, file.content);
  if (parsed.errors.length > 0) {
    const said = [...parsed.errors, 'pfctl: Syntax error in config file: pf rules not loaded'];
    return fail(`${ALTQ_NOISE}${said.join('\n')}`);
  }
  state.anchors.set(
    anchor,
    parsed.printed.map((r) => `${r}\n`),
  );
  return ok('', ALTQ_NOISE);
}
