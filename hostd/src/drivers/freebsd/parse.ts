// Parsers for the base-system tools' output (freebsd-jails.md §1.6, §2.2, §2.11). They never
// trust Bastille; every function is total: malformed input yields what could be parsed.

export interface ObservedJail {
  name: string;
  jid: number;
  path: string;
  /** True when `jls -d` reports the jail as dying (removed, still holding kernel resources). */
  dying: boolean;
}

/** `jls [-d] -v --libxo json` → jails. Throws on output that is not the documented JSON shape. */
export function parseJlsJson(stdout: string): ObservedJail[] {
  const parsed = JSON.parse(stdout) as {
    'jail-information'?: { jail?: Array<Record<string, unknown>> };
  };
  const jails = parsed['jail-information']?.jail;
  if (!Array.isArray(jails)) throw new Error('jls: unexpected libxo JSON (no jail-information)');
  return jails.map((entry) => ({
    name: String(entry.name ?? ''),
    jid: Number(entry.jid ?? -1),
    path: String(entry.path ?? ''),
    dying: String(entry.state ?? 'ACTIVE').toUpperCase() === 'DYING',
  }));
}

export interface ObservedDataset {
  name: string;
  /** `hostd:task`, null when unset (`-`). */
  taskId: string | null;
  /** `hostd:expires` in epoch seconds, null when unset. */
  expires: number | null;
  /** `hostd:display`, the jail's X display (`:0`), null when unset. */
  display: string | null;
}

/** `zfs list -H -p -o name,hostd:task,hostd:expires,hostd:display …` → datasets (`-` = unset). */
export function parseZfsInventory(stdout: string): ObservedDataset[] {
  return lines(stdout).map((line) => {
    const [name = '', task = '-', expires = '-', display = '-'] = line.split('\t');
    return {
      name,
      taskId: task === '-' ? null : task,
      expires: expires === '-' || Number.isNaN(Number(expires)) ? null : Number(expires),
      display: /^:\d+$/.test(display) ? display : null,
    };
  });
}

/** `pfctl -a hostd -s Anchors` → anchor paths such as `hostd/browsertask007`. */
export function parseAnchors(stdout: string): string[] {
  return lines(stdout).map((line) => line.trim());
}

/** `rctl [filter]` → rule lines such as `jail:browsertask007:maxproc:deny=256`. */
export function parseRctlRules(stdout: string): string[] {
  return lines(stdout)
    .map((line) => line.trim())
    .filter((line) => line.includes(':'));
}

/** `ifconfig -l` → interface names. */
export function parseInterfaceList(stdout: string): string[] {
  return stdout.split(/\s+/).filter((name) => name !== '');
}

export interface ObservedMount {
  device: string;
  mountpoint: string;
  fstype: string;
}

/** `mount -p` (fstab format, tab or space separated) → mounts. */
export function parseMounts(stdout: string): ObservedMount[] {
  return lines(stdout).flatMap((line) => {
    const [device, mountpoint, fstype] = line.split(/\s+/);
    return device && mountpoint && fstype ? [{ device, mountpoint, fstype }] : [];
  });
}

/** Mounts strictly below `root`, deepest first (the order to unmount them). */
export function mountsBelow(all: readonly ObservedMount[], root: string): ObservedMount[] {
  return all
    .filter((mount) => mount.mountpoint.startsWith(`${root}/`))
    .sort((a, b) => b.mountpoint.length - a.mountpoint.length);
}

/** `pfctl -ss` lines that mention `ip` as a whole address (with or without a port). */
export function statesMentioning(stdout: string, ip: string): string[] {
  const pattern = new RegExp(`(^|[\\s(])${ip.replaceAll('.', '\\.')}([:\\s)\\[]|$)`);
  return lines(stdout).filter((line) => pattern.test(line));
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}
