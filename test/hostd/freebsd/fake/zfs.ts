// `/sbin/zfs` of the fake host: clone, list, destroy, with the real tools' messages.
import {
  type FakeDataset,
  type FakeState,
  fail,
  ok,
  type ToolResult,
  UnsupportedCommandError,
} from './state.js';

/** The user properties after `name` in the driver's `-o` column list. */
const USER_COLUMNS = ['hostd:task', 'hostd:expires', 'hostd:display'];

const missing = (name: string) => fail(`cannot open '${name}': dataset does not exist`);

export function zfsTool(state: FakeState, argv: readonly string[]): ToolResult {
  const args = argv.slice(1);
  const [verb] = args;
  if (verb === 'clone') return clone(state, args.slice(1));
  if (verb === 'list') return list(state, args.slice(1), argv);
  if (verb === 'destroy' && args.length === 3 && (args[1] === '-r' || args[1] === '-rf')) {
    return destroy(state, args[2] ?? '', args[1] === '-rf');
  }
  throw new UnsupportedCommandError(argv);
}

function clone(state: FakeState, args: readonly string[]): ToolResult {
  const props = new Map<string, string>();
  let i = 0;
  while (args[i] === '-o') {
    const [key = '', value = ''] = (args[i + 1] ?? '').split(/=(.*)/s);
    props.set(key, value);
    i += 2;
  }
  const [snapshot = '', target = ''] = args.slice(i);
  if (!state.snapshots.has(snapshot)) return missing(snapshot);
  if (state.datasets.has(target)) return fail(`cannot create '${target}': dataset already exists`);
  const parentName = target.slice(0, target.lastIndexOf('/'));
  const parent = state.datasets.get(parentName);
  if (!parent) return fail(`cannot create '${target}': parent does not exist`);
  const mountpoint = parent.mountpoint === null ? null : `${parent.mountpoint}/${lastPart(target)}`;
  state.datasets.set(target, { origin: snapshot, props, mountpoint, mounted: mountpoint !== null });
  if (mountpoint !== null) state.mounts.push({ device: target, mountpoint, fstype: 'zfs' });
  return ok();
}

function lastPart(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

function list(state: FakeState, args: readonly string[], argv: readonly string[]): ToolResult {
  const joined = args.join(' ');
  const target = args.at(-1) ?? '';
  if (joined === `-H -o name ${target}`) {
    return state.datasets.has(target) ? ok(`${target}\n`) : missing(target);
  }
  if (joined === `-H -o name -t snapshot ${target}`) {
    return state.snapshots.has(target) ? ok(`${target}\n`) : missing(target);
  }
  const columns = '-H -p -o name,hostd:task,hostd:expires,hostd:display';
  const row = (name: string, d: FakeDataset) =>
    [name, ...USER_COLUMNS.map((key) => d.props.get(key) ?? '-')].join('\t');
  if (joined === `${columns} -r -d 1 -t filesystem ${target}`) {
    if (!state.datasets.has(target)) return missing(target);
    const rows = [...state.datasets.entries()]
      .filter(([name]) => name === target || name.slice(0, name.lastIndexOf('/')) === target)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, d]) => row(name, d));
    return ok(`${rows.join('\n')}\n`);
  }
  if (joined === `${columns} ${target}`) {
    const dataset = state.datasets.get(target);
    return dataset ? ok(`${row(target, dataset)}\n`) : missing(target);
  }
  throw new UnsupportedCommandError(argv);
}

function destroy(state: FakeState, name: string, force: boolean): ToolResult {
  const target = state.datasets.get(name);
  if (!target) return missing(name);
  if (name.includes('@')) throw new Error('FakeFreeBSD: snapshot destroy not modelled');
  const mountpoint = target.mountpoint;
  if (mountpoint !== null && target.mounted) {
    const busyMsg = `cannot unmount '${mountpoint}': pool or dataset is busy`;
    const below = state.mounts.some((m) => m.mountpoint.startsWith(`${mountpoint}/`));
    if (below) return fail(busyMsg);
    const usedByJail = [...state.jails.values()].some((j) => j.path === mountpoint && !j.dying);
    const busyLeft = state.busy.get(name) ?? 0;
    if (!force && (usedByJail || busyLeft > 0)) {
      state.busy.set(name, Math.max(0, busyLeft - 1));
      return fail(busyMsg);
    }
  }
  for (const snapshot of state.snapshots) {
    if (!snapshot.startsWith(`${name}@`)) continue;
    const clones = [...state.datasets.entries()].filter(([, d]) => d.origin === snapshot);
    if (clones.length > 0) {
      return fail(`cannot destroy '${snapshot}': snapshot has dependent clones`);
    }
    state.snapshots.delete(snapshot);
  }
  state.datasets.delete(name);
  state.busy.delete(name);
  if (mountpoint !== null) {
    state.mounts = state.mounts.filter((m) => m.mountpoint !== mountpoint);
    for (const path of state.files.keys()) {
      if (path.startsWith(`${mountpoint}/`)) state.files.delete(path);
    }
  }
  return ok();
}
