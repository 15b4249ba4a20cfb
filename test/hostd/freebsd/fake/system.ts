// `/usr/bin/rctl`, `/sbin/mount -p`, `/sbin/umount -f`, `/sbin/sysctl -n`, `/sbin/devfs rule`,
// kldstat/kldload and mkdir of the fake host.
import { type FakeState, fail, ok, type ToolResult, UnsupportedCommandError } from './state.js';

const UNITS: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };
const MEMORY_RESOURCES = new Set(['memoryuse', 'swapuse', 'vmemoryuse', 'datasize', 'stacksize']);

/** rctl(8) prints amounts in bytes unless -h: `…:memoryuse:deny=2g` → `…:deny=2147483648`. */
function normalise(rule: string): string {
  const match = /^(jail:[^:]+:(\w+):\w+=)(\d+)([kmgt]?)$/i.exec(rule);
  if (!match) return rule;
  const [, head = '', resource = '', amount = '0', unit = ''] = match;
  const factor = MEMORY_RESOURCES.has(resource) ? (UNITS[unit.toLowerCase()] ?? 1) : 1;
  return `${head}${Number(amount) * factor}`;
}

export function rctlTool(state: FakeState, argv: readonly string[]): ToolResult {
  const args = argv.slice(1);
  if (!state.racctEnabled) {
    return fail('rctl: RACCT/RCTL present, but disabled; enable using kern.racct.enable=1 tunable');
  }
  if (args.length === 0) return ok(state.rctlRules.map((r) => `${r}\n`).join(''));
  if (args[0] === '-a' && args.length > 1) {
    for (const rule of args.slice(1)) {
      if (!/^jail:[^:]+:\w+:\w+=\d+[kmgt]?$/i.test(rule)) {
        return fail(`rctl: failed to add rule '${rule}': Invalid argument`);
      }
      const normalised = normalise(rule);
      const key = normalised.slice(0, normalised.lastIndexOf('='));
      state.rctlRules = state.rctlRules.filter((r) => !r.startsWith(`${key}=`));
      state.rctlRules.push(normalised);
    }
    return ok();
  }
  if (args.length === 2 && args[0] === '-r') {
    const subject = args[1] ?? '';
    const before = state.rctlRules.length;
    state.rctlRules = state.rctlRules.filter((r) => !r.startsWith(`${subject}:`));
    // Assumed harsher than reality until verified (freebsd-jails.md §5.2): no match is an error.
    if (before === state.rctlRules.length) {
      return fail(`rctl: failed to remove rule '${subject}': No such process`);
    }
    return ok();
  }
  if (args.length === 1 && args[0]?.startsWith('jail:')) {
    const subject = args[0];
    return ok(
      state.rctlRules
        .filter((r) => r.startsWith(`${subject}:`))
        .map((r) => `${r}\n`)
        .join(''),
    );
  }
  throw new UnsupportedCommandError(argv);
}

export function mountTool(state: FakeState, argv: readonly string[]): ToolResult {
  if (argv.length !== 2 || argv[1] !== '-p') throw new UnsupportedCommandError(argv);
  const options = (fstype: string) => (fstype === 'zfs' ? 'rw,nfsv4acls' : 'rw');
  return ok(
    state.mounts
      .map((m) => `${m.device}\t\t${m.mountpoint}\t${m.fstype}\t${options(m.fstype)}\t0 0\n`)
      .join(''),
  );
}

export function umountTool(state: FakeState, argv: readonly string[]): ToolResult {
  if (argv.length !== 3 || argv[1] !== '-f') throw new UnsupportedCommandError(argv);
  const path = argv[2] ?? '';
  const index = state.mounts.findIndex((m) => m.mountpoint === path);
  if (index < 0) return fail(`umount: ${path}: not a file system root directory`);
  const [removed] = state.mounts.splice(index, 1);
  const dataset = removed ? state.datasets.get(removed.device) : undefined;
  if (dataset) dataset.mounted = false;
  return ok();
}

export function sysctlTool(state: FakeState, argv: readonly string[]): ToolResult {
  const args = argv.slice(1).join(' ');
  if (args === '-n kern.racct.enable') return ok(state.racctEnabled ? '1\n' : '0\n');
  if (args === '-n kern.features.vimage') {
    // A kernel without VIMAGE has no such feature OID at all.
    return state.vimage ? ok('1\n') : fail("sysctl: unknown oid 'kern.features.vimage'");
  }
  if (args === '-n net.inet.ip.fw.default_to_accept') {
    // The OID is ipfw's (sys/netpfil/ipfw/ip_fw2.c): absent without the module.
    if (!state.kernelModules.has('ipfw')) {
      return fail("sysctl: unknown oid 'net.inet.ip.fw.default_to_accept'");
    }
    return ok(state.ipfwDefaultToAccept ? '1\n' : '0\n');
  }
  throw new UnsupportedCommandError(argv);
}

/**
 * `devfs rule -s N show` (sbin/devfs/rule.c rule_show()): the ruleset's rules, one per line; an
 * unknown ruleset ends the DEVFSIO_RGETNEXT walk at once (ENOENT) and prints nothing, exit 0.
 */
export function devfsTool(state: FakeState, argv: readonly string[]): ToolResult {
  const match = /^rule -s (\d+) show$/.exec(argv.slice(1).join(' '));
  if (!match) throw new UnsupportedCommandError(argv);
  const rules = state.devfsRulesets.get(Number(match[1])) ?? [];
  return ok(rules.map((rule) => `${rule}\n`).join(''));
}

/** `kldstat -q -m MOD`: exit 0 when the module is there, 1 (nothing printed) otherwise. */
export function kldstatTool(state: FakeState, argv: readonly string[]): ToolResult {
  const match = /^-q -m (\S+)$/.exec(argv.slice(1).join(' '));
  if (!match) throw new UnsupportedCommandError(argv);
  return state.kernelModules.has(match[1] ?? '') ? ok() : { exitCode: 1, stdout: '', stderr: '' };
}

/** `kldload -n MOD`: loads it (no error when already there). */
export function kldloadTool(state: FakeState, argv: readonly string[]): ToolResult {
  const match = /^-n (\S+)$/.exec(argv.slice(1).join(' '));
  if (!match) throw new UnsupportedCommandError(argv);
  state.kernelModules.add(match[1] ?? '');
  return ok();
}

/** `mkdir -p -m MODE DIR`: makes DIR and its parents; an existing one is left as it is. */
export function mkdirTool(state: FakeState, argv: readonly string[]): ToolResult {
  const match = /^-p -m [0-7]{3,4} (\/\S+)$/.exec(argv.slice(1).join(' '));
  if (!match) throw new UnsupportedCommandError(argv);
  const parts = (match[1] ?? '').split('/').filter((part) => part !== '');
  for (let i = 1; i <= parts.length; i += 1)
    state.directories.add(`/${parts.slice(0, i).join('/')}`);
  return ok();
}
