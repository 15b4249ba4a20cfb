// Observed state of the task jails: one inventory of the whole host (freebsd-jails.md §2.12 step 1),
// each command independent, and the CloneInfo of any index derived from it. Nothing is cached.
import type { CloneInfo, CloneState } from '../jail-driver.js';
import { epair, jail, mounts, pf, rctl, zfs } from './commands.js';
import { type FreeBsdHost, run } from './freebsd-host.js';
import {
  indexOfAddress,
  indexOfInterface,
  indexOfJailName,
  type TaskNames,
  taskNames,
} from './names.js';
import {
  type ObservedDataset,
  type ObservedJail,
  type ObservedMount,
  parseAnchors,
  parseInterfaceList,
  parseJlsJson,
  parseMounts,
  parseRctlRules,
  parseZfsInventory,
} from './parse.js';

export interface Inventory {
  jails: ObservedJail[];
  datasets: ObservedDataset[];
  anchors: string[];
  rctlRules: string[];
  interfaces: string[];
  mounts: ObservedMount[];
  /** Entry names in the run directory (`browsertaskNNN.conf`, `.pf`). */
  runFiles: string[];
  /** Task addresses (10.78.x.y) mentioned by PF states. */
  stateAddresses: string[];
}

/** Enumerates the host. A failing tool contributes nothing (e.g. no tasks dataset yet). */
export async function takeInventory(host: FreeBsdHost): Promise<Inventory> {
  const jls = await run(host, jail.inventory());
  const datasets = await run(host, zfs.inventory(host.layout));
  const anchors = await run(host, pf.listAnchors(host.layout));
  const rules = await run(host, rctl.showAll());
  const interfaces = await run(host, epair.list());
  const mounted = await run(host, mounts.list());
  const states = await run(host, pf.showStates());
  return {
    jails: jls.exitCode === 0 ? parseJlsJson(jls.stdout) : [],
    datasets: datasets.exitCode === 0 ? parseZfsInventory(datasets.stdout) : [],
    anchors: anchors.exitCode === 0 ? parseAnchors(anchors.stdout) : [],
    rctlRules: rules.exitCode === 0 ? parseRctlRules(rules.stdout) : [],
    interfaces: interfaces.exitCode === 0 ? parseInterfaceList(interfaces.stdout) : [],
    mounts: mounted.exitCode === 0 ? parseMounts(mounted.stdout) : [],
    runFiles: await host.files.list(host.layout.runDir),
    stateAddresses: [...new Set(states.stdout.match(/\b10\.78\.\d{1,3}\.\d{1,3}\b/g) ?? [])],
  };
}

/** Every index with at least one resource, ascending. */
export function observedIndices(inventory: Inventory, host: FreeBsdHost): number[] {
  const found = new Set<number>();
  const add = (index: number | null) => {
    if (index !== null) found.add(index);
  };
  for (const j of inventory.jails) add(indexOfJailName(j.name, host.layout));
  for (const d of inventory.datasets) add(indexOfJailName(lastSegment(d.name), host.layout));
  for (const a of inventory.anchors) add(indexOfJailName(lastSegment(a), host.layout));
  for (const r of inventory.rctlRules) add(indexOfJailName(r.split(':')[1] ?? '', host.layout));
  for (const i of inventory.interfaces) add(indexOfInterface(i, host.layout));
  for (const m of inventory.mounts) {
    if (m.mountpoint.startsWith(`${host.layout.jailsRoot}/`)) {
      add(
        indexOfJailName(
          m.mountpoint.slice(host.layout.jailsRoot.length + 1).split('/')[0] ?? '',
          host.layout,
        ),
      );
    }
  }
  for (const f of inventory.runFiles)
    add(indexOfJailName(f.replace(/\.(conf|pf)$/, ''), host.layout));
  for (const a of inventory.stateAddresses) add(indexOfAddress(a, host.layout));
  return [...found].sort((a, b) => a - b);
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The resources of one task in `inventory`, as `kind:identifier`. */
export function resourcesOf(inventory: Inventory, names: TaskNames): string[] {
  const out: string[] = [];
  for (const j of inventory.jails.filter((entry) => entry.name === names.jail)) {
    out.push(`${j.dying ? 'dying-jail' : 'jail'}:${names.jail}`);
  }
  if (inventory.datasets.some((d) => d.name === names.dataset)) {
    out.push(`dataset:${names.dataset}`);
  }
  for (const m of inventory.mounts) {
    if (m.mountpoint.startsWith(`${names.root}/`)) out.push(`mount:${m.mountpoint}`);
  }
  if (inventory.anchors.includes(names.anchor)) out.push(`pf-anchor:${names.anchor}`);
  if (inventory.rctlRules.some((r) => r.startsWith(`${names.rctlSubject}:`))) {
    out.push(`rctl:${names.rctlSubject}`);
  }
  const ends = [names.hostIf, names.jailIf, `${names.epairUnit}a`, `${names.epairUnit}b`];
  for (const end of ends.filter((e) => inventory.interfaces.includes(e))) {
    out.push(`interface:${end}`);
  }
  for (const path of [names.confPath, names.pfPath]) {
    if (inventory.runFiles.includes(lastSegment(path))) out.push(`file:${path}`);
  }
  if ([names.hostIp, names.jailIp].some((ip) => inventory.stateAddresses.includes(ip))) {
    out.push(`pf-states:${names.jailIp}`);
  }
  return out;
}

/** The CloneInfo of `index` from an inventory, or null when nothing of it exists. */
export async function describeClone(
  host: FreeBsdHost,
  inventory: Inventory,
  index: number,
): Promise<CloneInfo | null> {
  const names = taskNames(index, host.layout);
  const resources = resourcesOf(inventory, names);
  if (resources.length === 0) return null;
  const dataset = inventory.datasets.find((d) => d.name === names.dataset);
  const complete = ['dataset', 'pf-anchor', 'rctl'].every((kind) =>
    resources.some((r) => r.startsWith(`${kind}:`)),
  );
  const linked = resources.includes(`interface:${names.hostIf}`);
  const jailUp = resources.includes(`jail:${names.jail}`);
  const dying = resources.includes(`dying-jail:${names.jail}`);
  let state: CloneState = 'broken';
  if (complete && linked && jailUp) state = 'running';
  else if (complete && linked && !dying && resources.includes(`interface:${names.jailIf}`)) {
    state = 'created';
  }
  const token = state === 'running' ? (await host.files.read(names.tokenFile))?.trim() : undefined;
  return {
    index,
    name: names.jail,
    taskId: dataset?.taskId ?? null,
    state,
    service: token ? { url: names.serviceUrl, token } : null,
    isolation: { level: 'full', reasons: [] },
    network: linked ? { hostAddress: names.hostIp, cloneAddress: names.jailIp } : null,
    // The service answers health only once it has opened the jail's display (desktop-driver.ts).
    display: state === 'running' ? (dataset?.display ?? null) : null,
    resources,
  };
}

/** One task's dataset and its user properties, or null when it does not exist (one command). */
export async function observeDataset(
  host: FreeBsdHost,
  names: TaskNames,
): Promise<ObservedDataset | null> {
  const listed = await run(host, zfs.describe(names.dataset));
  if (listed.exitCode !== 0) return null;
  return parseZfsInventory(listed.stdout).find((d) => d.name === names.dataset) ?? null;
}

/** True when the task's jail exists and is not dying (one command). */
export async function jailActive(host: FreeBsdHost, names: TaskNames): Promise<boolean> {
  return (await run(host, jail.jid(names.jail, false))).exitCode === 0;
}
