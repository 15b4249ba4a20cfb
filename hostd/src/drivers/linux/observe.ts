// Reads what exists on the OS for every clone: namespaces, host veth ends, cgroup leaves, state
// directories, processes and X displays of the clone uids. The driver's only source of truth.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommandRunner } from '@clawdie/kit/runner';
import type { CloneNamespace } from '../clone-namespace.js';
import { parseCloneName } from '../jail-driver.js';
import { type CgroupLayout, listCgroupLeaves } from './cgroups.js';
import { cloneUidBase } from './names.js';
import { observeNetwork } from './network.js';
import { processesByIndex } from './processes.js';
import { readStateFiles, type StateFiles } from './state-files.js';

export interface Observation {
  index: number;
  netns: boolean;
  link: boolean;
  stateDir: string | null;
  cgroups: string[];
  pids: number[];
  /** X display numbers whose socket belongs to the clone's uid (-displayfd makes no lock file). */
  displays: number[];
  files: StateFiles;
}

export interface ObserveContext {
  runner: CommandRunner;
  cgroups: CgroupLayout;
  stateRoot: string;
  uidBase: number;
  /** Only this namespace's clones are observed; another namespace's are not there for us. */
  namespace: CloneNamespace;
  /** Where X keeps its locks and sockets: /tmp. */
  xDir: string;
}

/**
 * Every clone of the namespace — or, with `only`, that one clone's resources (the same sources read
 * the same way, the others' left out; their state files are then not read).
 */
export async function observeAll(
  context: ObserveContext,
  only?: number,
): Promise<Map<number, Observation>> {
  const { namespace } = context;
  const uidBase = cloneUidBase(context);
  const [network, leaves, dirs, processes, displays] = await Promise.all([
    observeNetwork(namespace),
    listCgroupLeaves(context.cgroups),
    readdir(context.stateRoot).catch(() => [] as string[]),
    processesByIndex(uidBase, only),
    displaysByIndex(context.xDir, uidBase),
  ]);
  const result = new Map<number, Observation>();
  const ignored = emptyObservation(0);
  const get = (index: number): Observation => {
    if (only !== undefined && index !== only) return ignored;
    let entry = result.get(index);
    if (!entry) {
      entry = emptyObservation(index);
      result.set(index, entry);
    }
    return entry;
  };
  for (const index of network.namespaces) get(index).netns = true;
  for (const index of network.links) get(index).link = true;
  for (const [name, paths] of leaves) {
    const index = parseCloneName(name, namespace);
    if (index !== null) get(index).cgroups.push(...paths);
  }
  for (const name of dirs) {
    const index = parseCloneName(name, namespace);
    if (index !== null) get(index).stateDir = join(context.stateRoot, name);
  }
  for (const [index, pids] of processes) get(index).pids.push(...pids);
  for (const [index, numbers] of displays) get(index).displays.push(...numbers);
  await Promise.all(
    [...result.values()].map(async (entry) => {
      if (entry.stateDir) entry.files = await readStateFiles(entry.stateDir);
    }),
  );
  return result;
}

/** One clone's observation, or null when nothing of it exists. */
export async function observeClone(
  context: ObserveContext,
  index: number,
): Promise<Observation | null> {
  return (await observeAll(context, index)).get(index) ?? null;
}

function emptyObservation(index: number): Observation {
  return {
    index,
    netns: false,
    link: false,
    stateDir: null,
    cgroups: [],
    pids: [],
    displays: [],
    files: { meta: null, service: null, display: null },
  };
}

/** `kind:identifier` strings for every resource in an observation. */
export function resourceList(observation: Observation, names: { netns: string }): string[] {
  const list: string[] = [];
  if (observation.netns) list.push(`netns:${names.netns}`);
  if (observation.link) list.push(`link:${names.netns}h`);
  for (const path of observation.cgroups) list.push(`cgroup:${path}`);
  if (observation.stateDir) list.push(`dir:${observation.stateDir}`);
  for (const pid of observation.pids) list.push(`process:${pid}`);
  for (const display of observation.displays) list.push(`display::${display}`);
  return list;
}

async function displaysByIndex(xDir: string, uidBase: number): Promise<Map<number, number[]>> {
  const found = new Map<number, number[]>();
  const socketDir = join(xDir, '.X11-unix');
  const entries = await readdir(socketDir).catch(() => [] as string[]);
  for (const entry of entries) {
    const display = /^X(\d+)$/.exec(entry)?.[1];
    if (display === undefined) continue;
    const owner = await stat(join(socketDir, entry)).then(
      (info) => info.uid,
      () => -1,
    );
    const index = owner - uidBase;
    if (index < 1 || index > 999) continue;
    found.set(index, [...(found.get(index) ?? []), Number(display)]);
  }
  return found;
}

/** Removes the lock file and socket of a display whose server is gone. */
export async function removeDisplayFiles(xDir: string, display: number): Promise<void> {
  await rm(join(xDir, `.X${display}-lock`), { force: true });
  await rm(join(xDir, '.X11-unix', `X${display}`), { force: true });
}
