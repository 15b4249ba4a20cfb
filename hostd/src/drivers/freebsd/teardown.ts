// Stop and destroy of one task jail (freebsd-jails.md §2.10): a list of idempotent "ensure absent"
// steps, tolerant of "not found", that wait for kernel-visible emptiness (jls absent, no mounts)
// rather than trusting exit codes; then the §2.11 verification lists whatever is still there.
import { logStamp, pruneTaskLogs } from '../task-logs.js';
import { epair, jail, mounts, pf, rctl, zfs } from './commands.js';
import { type FreeBsdHost, run } from './freebsd-host.js';
import type { TaskNames } from './names.js';
import { mountsBelow, parseInterfaceList, parseMounts, statesMentioning } from './parse.js';

/** How long to wait for a removed jail to leave `jls -d` before reporting it as a leftover. */
const JAIL_GONE_POLLS = 50;
const JAIL_GONE_INTERVAL_MS = 100;
const ZFS_RETRY_DELAY_MS = 1000;

/** Removes the jail (if any) and everything mounted below its root. Resources stay. */
export async function stopJail(host: FreeBsdHost, names: TaskNames): Promise<void> {
  const hasConf = (await host.files.read(names.confPath)) !== null;
  await run(host, jail.remove(names, hasConf));
  // Judge by jls, not by the exit code: one `jls -d` says whether anything is left. Then jail -R,
  // which finds only a jail still running (a dying one is not found: a harmless exit 1), and wait.
  if (await jailPresent(host, names.jail, true)) {
    await run(host, jail.removeRaw(names.jail));
    await waitJailGone(host, names.jail);
  }
  await unmountBelow(host, names.root);
}

async function jailPresent(host: FreeBsdHost, name: string, dying: boolean): Promise<boolean> {
  return (await run(host, jail.jid(name, dying))).exitCode === 0;
}

async function waitJailGone(host: FreeBsdHost, name: string): Promise<void> {
  for (let poll = 0; poll < JAIL_GONE_POLLS; poll += 1) {
    if (!(await jailPresent(host, name, true))) return;
    await host.sleep(JAIL_GONE_INTERVAL_MS);
  }
}

async function unmountBelow(host: FreeBsdHost, root: string): Promise<void> {
  const listed = await run(host, mounts.list());
  for (const mount of mountsBelow(parseMounts(listed.stdout), root)) {
    await run(host, mounts.forceUnmount(mount.mountpoint));
  }
}

/** Every step of the teardown, in order. Never throws on "already absent". */
export async function destroyResources(host: FreeBsdHost, names: TaskNames): Promise<void> {
  // The anchor is emptied only once the jail is gone: flushed first, the jail would run on for up
  // to stop.timeout with only the main ruleset's block between it and the network. The states
  // go after the flush, so no pass rule can make a new one in between.
  await stopJail(host, names);
  await run(host, pf.flushRules(names.anchor));
  await run(host, pf.flushTables(names.anchor));
  await run(host, pf.killStatesFrom(names.jailIp));
  await run(host, pf.killStatesTo(names.jailIp));
  // rctl rules outlive the jail; a failure here is verified below rather than trusted.
  await run(host, rctl.remove(names.rctlSubject));
  await destroyEpair(host, names);
  await destroyDataset(host, names);
  await host.files.remove(names.confPath);
  await host.files.remove(names.pfPath);
  // The console log is archived under its time and the archive kept within its bounds.
  if (await host.files.rename(names.consoleLog, `${names.consoleLog}.${logStamp(host.now())}`)) {
    await pruneTaskLogs(host.files, host.taskLogs, host.layout.namespace);
  }
}

/** Both ends under their final and their creation names. */
function epairEnds(names: TaskNames): string[] {
  return [names.hostIf, `${names.epairUnit}a`, names.jailIf, `${names.epairUnit}b`];
}

async function destroyEpair(host: FreeBsdHost, names: TaskNames): Promise<void> {
  // Destroying either end destroys the pair; a crash before the rename leaves the unit names.
  const interfaces = parseInterfaceList((await run(host, epair.list())).stdout);
  for (const end of epairEnds(names)) {
    if (interfaces.includes(end)) {
      await run(host, epair.destroy(end));
      return;
    }
  }
}

async function destroyDataset(host: FreeBsdHost, names: TaskNames): Promise<void> {
  for (const force of [false, false, true]) {
    const result = await run(host, zfs.destroy(names.dataset, force));
    if (result.exitCode === 0 || result.stderr.includes('dataset does not exist')) return;
    if (!force) await host.sleep(ZFS_RETRY_DELAY_MS);
  }
}

/**
 * The §2.11 verification: every resource of the task that still exists, as `kind:identifier`.
 * Empty means the index may be reused.
 */
export async function verifyAbsent(host: FreeBsdHost, names: TaskNames): Promise<string[]> {
  const left: string[] = [];
  // One `jls -d` in the usual case (gone); a second only to tell a running jail from a dying one.
  if (await jailPresent(host, names.jail, true)) {
    const running = await jailPresent(host, names.jail, false);
    left.push(`${running ? 'jail' : 'dying-jail'}:${names.jail}`);
  }
  if ((await run(host, zfs.exists(names.dataset))).exitCode === 0) {
    left.push(`dataset:${names.dataset}`);
  }
  const mounted = parseMounts((await run(host, mounts.list())).stdout);
  for (const mount of mounted.filter((m) => m.mountpoint === names.root)) {
    left.push(`mount:${mount.mountpoint}`);
  }
  for (const mount of mountsBelow(mounted, names.root)) left.push(`mount:${mount.mountpoint}`);
  const anchors = (await run(host, pf.listAnchors(host.layout))).stdout;
  const rules = await run(host, pf.showRules(names.anchor));
  if (anchors.split('\n').some((line) => line.trim() === names.anchor)) {
    left.push(`pf-anchor:${names.anchor}`);
  } else if (rules.exitCode === 0 && rules.stdout.trim() !== '') {
    left.push(`pf-anchor:${names.anchor}`);
  }
  const states = await run(host, pf.showStates());
  if (statesMentioning(states.stdout, names.jailIp).length > 0) {
    left.push(`pf-states:${names.jailIp}`);
  }
  if ((await run(host, rctl.show(names.rctlSubject))).stdout.trim() !== '') {
    left.push(`rctl:${names.rctlSubject}`);
  }
  const interfaces = parseInterfaceList((await run(host, epair.list())).stdout);
  for (const end of epairEnds(names)) {
    if (interfaces.includes(end)) left.push(`interface:${end}`);
  }
  for (const path of [names.confPath, names.pfPath]) {
    if ((await host.files.read(path)) !== null) left.push(`file:${path}`);
  }
  return left;
}
