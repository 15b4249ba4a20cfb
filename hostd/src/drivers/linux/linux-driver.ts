// Adapter: JailDriver on Linux — per clone a network namespace + veth + nftables, cgroup limits, a
// per-clone uid, bubblewrap, a copied profile, an optional Xvfb, the jail-service inside
// (freebsd-jails.md §3). Missing privileges give a reported `reduced` isolation, never silence.
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import type { LaunchedProcess } from '@clawdie/kit/runner';
import type { CloneNamespace } from '../clone-namespace.js';
import type { InsideConnect, InsideTarget } from '../inside-probe.js';
import {
  type CloneInfo,
  type CloneIsolation,
  type CloneSpec,
  type CpuPriority,
  type DestroyResult,
  type JailDriver,
  JailDriverError,
  type KeepPredicate,
  parseCloneName,
  type ReconcileResult,
  type StartOptions,
} from '../jail-driver.js';
import {
  cgroupCpuTimeMs,
  createCgroups,
  destroyCgroups,
  killCgroup,
  procsFiles,
  setCpuWeight,
} from './cgroups.js';
import { cloneInfoOf } from './clone-info.js';
import { startDisplay } from './display-start.js';
import { failure, makeProfile, phaseClock, settleAll } from './driver-steps.js';
import { type HostCapabilities, probeHost } from './host-probe.js';
import type { LinuxDriverOptions } from './linux-driver-options.js';
import { LogTails } from './log-tails.js';
import { cloneUidBase, type LinuxCloneNames, linuxNames } from './names.js';
import { connectInNetns, createNetwork, destroyNetwork } from './network.js';
import {
  type Observation,
  observeAll,
  observeClone,
  removeDisplayFiles,
  resourceList,
} from './observe.js';
import { killGroup, killUidProcesses } from './processes.js';
import { wrap } from './sandbox.js';
import { sandboxedService, serviceEnvironment } from './service-launch.js';
import { writeMeta, writeService } from './state-files.js';
import { saysListening, waitForHealth } from './wait.js';

export type { LinuxDriverOptions };

export class LinuxDriver implements JailDriver {
  readonly kind = 'linux';
  readonly namespace: CloneNamespace;
  readonly #options: LinuxDriverOptions;
  readonly #xDir: string;
  #host: Promise<HostCapabilities> | null = null;
  readonly #children = new Map<string, LaunchedProcess[]>();
  readonly #logs = new LogTails();

  constructor(options: LinuxDriverOptions) {
    this.#options = options;
    this.namespace = options.namespace;
    this.#xDir = options.xDir ?? '/tmp';
  }

  async probe(): Promise<CloneIsolation> {
    return (await this.#capabilities()).isolation;
  }

  async create(index: number, spec: CloneSpec): Promise<CloneInfo> {
    const host = await this.#capabilities();
    const names = this.#names(index);
    const phase = phaseClock(names.name, this.#options.onPhase);
    if ((await this.#observation(index)) !== null) {
      throw new JailDriverError('CLONE_EXISTS', `${names.name} has leftover resources`, {
        cloneName: names.name,
      });
    }
    phase('observe');
    try {
      await mkdir(names.stateDir, { mode: 0o711 });
      // Concurrent, and all settled before a failure is reported: destroy never races a step.
      await settleAll([
        writeMeta(names.stateDir, {
          spec,
          isolation: host.isolation,
          createdAt: new Date().toISOString(),
        }),
        makeProfile(this.#options.templateProfile, names),
        host.cgroups.mode !== 'none'
          ? createCgroups(host.cgroups, names.name, spec.limits)
          : Promise.resolve(),
        host.netns ? createNetwork(this.#options.runner, names, this.#options) : Promise.resolve(),
      ]);
      phase('setup');
      // Xvfb joins the clone's cgroups and network namespace, so it comes last.
      if (spec.display) {
        await startDisplay({
          launcher: this.#options.launcher,
          xDir: this.#xDir,
          names,
          wrapOptions: this.#wrapOptions(names, host),
          onStderrLine: (text) => this.#logs.append(names.name, 'xvfb', text),
          remember: (child) => this.#remember(names.name, child),
        });
        phase('display');
      }
    } catch (error) {
      throw failure('CLONE_CREATE_FAILED', names.name, error);
    }
    const info = await this.#require(names.name);
    phase('inspect');
    return info;
  }

  async start(name: string, options: StartOptions): Promise<CloneInfo> {
    const host = await this.#capabilities();
    const phase = phaseClock(name, this.#options.onPhase);
    const clone = await this.#require(name);
    const names = this.#names(clone.index);
    phase('observe');
    const token = randomBytes(24).toString('hex');
    const address = host.netns ? names.cloneAddress : '127.0.0.1';
    const port = host.netns ? this.#options.servicePort : names.loopbackPort;
    const url = `http://${address}:${port}`;
    const env = serviceEnvironment(this.#options.serviceEnv, {
      token,
      address,
      port,
      proxyUrl: options.egressProxyUrl,
      display: clone.display,
    });
    const command = sandboxedService({
      names,
      readOnly: this.#options.readOnlyDirs,
      display: clone.display,
      cwd: this.#options.serviceCwd,
      argv: this.#options.serviceArgv,
    });
    let heard = () => {};
    const listening = new Promise<void>((resolve) => {
      heard = resolve;
    });
    try {
      const child = await this.#options.launcher.launch({
        argv: wrap(this.#wrapOptions(names, host), command),
        env,
        processGroup: true,
        onStdoutLine: (line) => this.#logs.append(name, 'jail-service', line),
        onStderrLine: (line) => {
          this.#logs.append(name, 'jail-service', line);
          this.#options.onServiceLine?.(name, line);
          if (saysListening(line)) heard();
        },
      });
      this.#remember(name, child);
      await writeService(names.stateDir, { url, token, pid: child.pid });
      phase('spawn');
      const timeoutMs = options.timeoutMs ?? this.#options.healthTimeoutMs;
      // The clone's word only ends a pause: health is still what its authenticated answer says.
      await waitForHealth(url, token, child, timeoutMs, options.signal, listening);
      phase('health');
    } catch (error) {
      const failed = failure('CLONE_START_FAILED', name, error);
      const { taskLogs } = this.#options;
      if (!taskLogs || options.signal?.aborted) throw failed;
      throw await this.#logs.keep(taskLogs, this.namespace, name, failed);
    }
    const info = await this.#require(name);
    phase('inspect');
    return info;
  }

  async stop(name: string): Promise<CloneInfo | null> {
    const index = parseCloneName(name, this.namespace);
    const clone = index === null ? null : await this.#observation(index);
    if (!clone) return null;
    const pid = clone.files.service?.pid;
    if (pid !== undefined) await killGroup(pid);
    await rm(`${this.#names(clone.index).stateDir}/service.json`, { force: true });
    return this.inspect(name);
  }

  async destroy(name: string): Promise<DestroyResult> {
    const index = parseCloneName(name, this.namespace);
    if (index === null) return { name, leftovers: [] };
    const host = await this.#capabilities();
    const names = this.#names(index);
    for (const child of this.#children.get(name) ?? []) child.kill();
    this.#children.delete(name);
    this.#logs.forget(name);
    const cgroups = host.cgroups.mode !== 'none';
    const [before, killed] = await Promise.all([
      this.#observation(index),
      cgroups ? killCgroup(host.cgroups, name) : false,
    ]);
    const uidBase = cloneUidBase(this.#options);
    if (!killed) await killUidProcesses(uidBase, index);
    // Every process of the clone is killed now (cgroup.kill, or by uid above): its cgroup, network
    // and files go at once while the kernel finishes their exit.
    await Promise.all([
      cgroups ? destroyCgroups(host.cgroups, name).catch(() => {}) : null,
      destroyNetwork(this.#options.runner, names, this.namespace),
      this.#removeFiles(names, before),
    ]);
    // A process of the clone's uid outside its cgroup (none can move itself out): found and killed.
    if (killed) await killUidProcesses(uidBase, index);
    if (cgroups) await destroyCgroups(host.cgroups, name).catch(() => {});
    const after = await this.#observation(index);
    return { name, leftovers: after ? resourceList(after, names) : [] };
  }

  async #removeFiles(names: LinuxCloneNames, before: Observation | null): Promise<void> {
    const displays = new Set([...(before?.displays ?? [])]);
    if (before?.files.display !== null && before?.files.display !== undefined) {
      displays.add(before.files.display);
    }
    for (const display of displays) await removeDisplayFiles(this.#xDir, display);
    await rm(names.stateDir, { recursive: true, force: true, maxRetries: 3 });
  }

  async inspect(name: string): Promise<CloneInfo | null> {
    const index = parseCloneName(name, this.namespace);
    if (index === null) return null;
    const observation = await this.#observation(index);
    return observation
      ? cloneInfoOf(observation, this.#names(observation.index), await this.#capabilities())
      : null;
  }

  async list(): Promise<CloneInfo[]> {
    const host = await this.#capabilities();
    const all = await this.#observe();
    const infos = await Promise.all(
      [...all.values()].map((entry) => cloneInfoOf(entry, this.#names(entry.index), host)),
    );
    return infos.sort((a, b) => a.index - b.index);
  }

  async reconcile(keep: KeepPredicate): Promise<ReconcileResult> {
    const kept: string[] = [];
    const destroyed: string[] = [];
    const leftovers: Record<string, readonly string[]> = {};
    for (const clone of await this.list()) {
      if (clone.state === 'running' && (await keep(clone))) {
        kept.push(clone.name);
        continue;
      }
      const result = await this.destroy(clone.name);
      destroyed.push(clone.name);
      if (result.leftovers.length > 0) leftovers[clone.name] = result.leftovers;
    }
    return { kept, destroyed, leftovers };
  }

  async setCpuPriority(name: string, priority: CpuPriority): Promise<void> {
    const host = await this.#capabilities();
    if (host.cgroups.mode !== 'none') await setCpuWeight(host.cgroups, name, priority);
  }

  async cpuTimeMs(name: string): Promise<number | null> {
    const host = await this.#capabilities();
    return host.cgroups.mode === 'none' ? null : cgroupCpuTimeMs(host.cgroups, name);
  }

  connectFromInside(name: string, target: InsideTarget): Promise<InsideConnect> {
    const index = parseCloneName(name, this.namespace);
    if (index === null) throw new JailDriverError('CLONE_NOT_FOUND', `${name} is not a clone name`);
    return connectInNetns(this.#options.runner, this.#names(index).netns, target);
  }

  #capabilities(): Promise<HostCapabilities> {
    this.#host ??= probeHost(this.#options);
    return this.#host;
  }

  #names(index: number): LinuxCloneNames {
    return linuxNames(index, this.#options);
  }

  #wrapOptions(names: LinuxCloneNames, host: HostCapabilities) {
    return { names, procsFiles: procsFiles(host.cgroups, names.name), netns: host.netns };
  }

  async #observe(): Promise<Map<number, Observation>> {
    return observeAll(await this.#observeContext());
  }

  /** Only this clone's resources: what create, start, stop, destroy and inspect look at. */
  async #observation(index: number): Promise<Observation | null> {
    return observeClone(await this.#observeContext(), index);
  }

  async #observeContext() {
    const host = await this.#capabilities();
    return { ...this.#options, cgroups: host.cgroups, xDir: this.#xDir };
  }

  async #require(name: string): Promise<CloneInfo> {
    const info = await this.inspect(name);
    if (!info) throw new JailDriverError('CLONE_NOT_FOUND', `${name} does not exist`);
    return info;
  }

  #remember(name: string, child: LaunchedProcess): void {
    this.#children.set(name, [...(this.#children.get(name) ?? []), child]);
    void child.exited.then(() => {
      const rest = (this.#children.get(name) ?? []).filter((entry) => entry !== child);
      this.#children.set(name, rest);
    });
  }
}
