// FakeFreeBSD: an in-memory FreeBSD 14 host (freebsd-jails.md §4.2) behind the CommandRunner,
// HostFiles and HealthCheck shapes the FreeBSD driver uses. It implements only the argv forms the
// driver emits (anything else throws), reproduces the tools' outputs and exit codes, logs every
// mutating operation for golden plans, and injects faults and crashes at any step.

import type { CommandRunner, RunResult } from '@clawdie/kit/runner';
import type { HealthCheck } from '../../../hostd/src/drivers/freebsd/health-check.js';
import type { HostFiles } from '../../../hostd/src/drivers/freebsd/host-files.js';
import { jailTool, jlsTool } from './fake/jail.js';
import { jexecTool } from './fake/jexec.js';
import { ifconfigTool, pfctlTool } from './fake/net.js';
import {
  DEFAULT_PREPARED,
  type FakeState,
  fail,
  type PreparedLayout,
  preparedHostState,
  type ToolResult,
} from './fake/state.js';
import {
  devfsTool,
  kldloadTool,
  kldstatTool,
  mkdirTool,
  mountTool,
  rctlTool,
  sysctlTool,
  umountTool,
} from './fake/system.js';
import { zfsTool } from './fake/zfs.js';
import { grammarProblems } from './grammar/host-check.js';

type Tool = (state: FakeState, argv: readonly string[]) => ToolResult;

const TOOLS: Record<string, Tool> = {
  '/sbin/zfs': zfsTool,
  '/usr/sbin/jail': jailTool,
  '/usr/sbin/jls': jlsTool,
  '/usr/sbin/jexec': jexecTool,
  '/sbin/ifconfig': ifconfigTool,
  '/sbin/pfctl': pfctlTool,
  '/usr/bin/rctl': rctlTool,
  '/sbin/mount': mountTool,
  '/sbin/umount': umountTool,
  '/sbin/sysctl': sysctlTool,
  '/sbin/kldstat': kldstatTool,
  '/sbin/kldload': kldloadTool,
  '/bin/mkdir': mkdirTool,
  '/sbin/devfs': devfsTool,
};

/** Read-only forms: not logged in the plan, not counted as steps. */
const READ_ONLY = [
  /^\/usr\/sbin\/jls /,
  /^\/usr\/sbin\/jexec /,
  /^\/sbin\/zfs list /,
  /^\/sbin\/ifconfig (-l|\S+)$/,
  /^\/sbin\/pfctl (-s|-ss|-sr|-a \S+ -sr|-a \S+ -s Anchors)/,
  /^\/usr\/bin\/rctl( jail:\S+)?$/,
  /^\/sbin\/mount -p$/,
  /^\/sbin\/sysctl /,
  /^\/sbin\/kldstat /,
  /^\/sbin\/devfs rule -s \d+ show$/,
];

/** What an injected fault does to the matching operation. */
export type FaultEffect =
  /** The tool fails without any effect. */
  | { kind: 'fail'; exitCode?: number; stderr: string }
  /** The tool exits 0 and prints nothing but does nothing (a lying tool). */
  | { kind: 'lie' }
  /** hostd dies: the run rejects with SimulatedCrash before (or after) the effect happens. */
  | { kind: 'crash'; when: 'before' | 'after' };

export interface Fault {
  /** Matched against the operation's plan line (argv joined by spaces, or `[write] path`). */
  match: RegExp;
  /** Which matching occurrence to hit, 1-based (default 1). */
  nth?: number;
  /** How many consecutive matching occurrences from `nth` (default 1). */
  times?: number;
  effect: FaultEffect;
}

/** Stands for hostd dying mid-operation; tests catch it and start a fresh driver. */
export class SimulatedCrash extends Error {
  constructor(line: string) {
    super(`simulated hostd crash at: ${line}`);
  }
}

const TOKEN_FILE = '/usr/local/etc/clawdie/jail.token';
const START_MS = Date.UTC(2026, 10, 23, 8, 0, 0);

export class FakeFreeBSD {
  readonly state: FakeState;
  readonly #jailsRoot: string;
  /** Every mutating operation, in order: the golden plan. */
  readonly plan: string[] = [];
  /** Every command, read-only ones included. */
  readonly commands: string[] = [];
  #clockMs = START_MS;
  #faults: Array<Fault & { seen: number }> = [];
  /** Crash before the Nth mutating operation (1-based) when set. */
  #crashAtStep: number | null = null;
  #steps = 0;

  /** A host `clawdie setup` prepared with `layout` (hostd's defaults unless given). */
  constructor(layout: PreparedLayout = DEFAULT_PREPARED) {
    this.state = preparedHostState(layout);
    this.#jailsRoot = `${layout.jailsRoot}/`;
  }

  readonly runner: CommandRunner = { run: (argv) => this.#run(argv) };
  readonly files: HostFiles = this.#createFiles();
  readonly healthCheck: HealthCheck = (url, token) => this.#health(url, token);
  readonly now = (): number => this.#clockMs;
  readonly sleep = async (ms: number): Promise<void> => {
    this.#clockMs += ms;
  };

  inject(fault: Fault): void {
    this.#faults.push({ ...fault, seen: 0 });
  }

  /** Removes every injected fault (the transient problem went away). */
  clearFaults(): void {
    this.#faults = [];
  }

  /** hostd "dies" right before the Nth mutating operation from now on. */
  crashAtStep(step: number | null): void {
    this.#crashAtStep = step;
    this.#steps = 0;
  }

  /** Every resource that belongs to a task, as `kind:name`; empty means nothing leaked. */
  residue(): string[] {
    const s = this.state;
    const task = /browsertask[a-z0-9]*\d{3}|^bt[a-z0-9]*\d{3}[ab]$|^epair\d{4,}[ab]$|10\.78\./;
    return [
      ...[...s.datasets.keys()].filter((n) => task.test(n)).map((n) => `dataset:${n}`),
      ...[...s.jails.keys()].filter((n) => task.test(n)).map((n) => `jail:${n}`),
      ...[...s.interfaces.keys()].filter((n) => task.test(n)).map((n) => `interface:${n}`),
      ...[...s.anchors.keys()].map((n) => `anchor:${n}`),
      ...s.rctlRules.filter((r) => task.test(r)).map((r) => `rctl:${r}`),
      ...s.mounts.filter((m) => task.test(m.mountpoint)).map((m) => `mount:${m.mountpoint}`),
      ...[...s.files.keys()]
        .filter((p) => task.test(p) && !p.startsWith('/var/log/hostd/'))
        .map((p) => `file:${p}`),
      ...s.pfStates.filter((line) => task.test(line)).map((line) => `pf-state:${line}`),
    ];
  }

  async #run(argv: readonly string[]): Promise<RunResult> {
    const line = argv.join(' ');
    this.commands.push(line);
    // Every argv must be one the real tool accepts (grammar/, read from the tools' sources).
    const problems = grammarProblems(argv, (path) => this.state.files.get(path)?.content);
    if (problems.length > 0) throw new Error(`FakeFreeBSD: ${line}: ${problems.join('; ')}`);
    const readOnly = READ_ONLY.some((pattern) => pattern.test(line));
    const tool = TOOLS[argv[0] ?? ''];
    if (!tool) throw new Error(`FakeFreeBSD: unknown program ${argv[0]}`);
    const result = this.#operate(line, !readOnly, () => tool(this.state, argv));
    this.#clockMs += 5;
    return { ...result, durationMs: 5 };
  }

  /** Applies crash points and faults around one operation. */
  #operate(line: string, mutating: boolean, apply: () => ToolResult): ToolResult {
    if (mutating) {
      this.plan.push(line);
      this.#steps += 1;
      if (this.#crashAtStep === this.#steps) throw new SimulatedCrash(line);
    }
    const fault = this.#faultFor(line);
    if (fault?.kind === 'fail') return fail(fault.stderr, fault.exitCode ?? 1);
    if (fault?.kind === 'lie') return { exitCode: 0, stdout: '', stderr: '' };
    if (fault?.kind === 'crash' && fault.when === 'before') throw new SimulatedCrash(line);
    const result = apply();
    if (fault?.kind === 'crash') throw new SimulatedCrash(line);
    return result;
  }

  #faultFor(line: string): FaultEffect | null {
    for (const fault of this.#faults) {
      if (!fault.match.test(line)) continue;
      fault.seen += 1;
      const first = fault.nth ?? 1;
      if (fault.seen >= first && fault.seen < first + (fault.times ?? 1)) return fault.effect;
    }
    return null;
  }

  #createFiles(): HostFiles {
    // Read at each call: the state is made in the constructor, after the field initialisers.
    const state = () => this.state;
    const unit = (): ToolResult => ({ exitCode: 0, stdout: '', stderr: '' });
    return {
      write: async (path, content, options) => {
        const owner = options.uid === undefined ? '' : ` uid=${options.uid}`;
        const mode = options.mode.toString(8).padStart(4, '0');
        this.#operate(`[write ${mode}${owner}] ${path}`, true, () => {
          this.#assertWritable(path);
          state().files.set(path, { content, mode: options.mode, uid: options.uid ?? 0 });
          return unit();
        });
      },
      read: async (path) => state().files.get(path)?.content ?? null,
      remove: async (path) => {
        if (!state().files.has(path)) return;
        this.#operate(`[rm] ${path}`, true, () => {
          state().files.delete(path);
          return unit();
        });
      },
      rename: async (from, to) => {
        const file = state().files.get(from);
        if (!file) return false;
        this.#operate(`[mv] ${from} ${to}`, true, () => {
          state().files.delete(from);
          state().files.set(to, file);
          return unit();
        });
        return true;
      },
      list: async (dir) =>
        [...state().files.keys()]
          .filter((p) => p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes('/'))
          .map((p) => p.slice(dir.length + 1)),
      size: async (path) => {
        const file = state().files.get(path);
        return file === undefined ? null : Buffer.byteLength(file.content);
      },
    };
  }

  /** A write below the task jails' root needs the clone mounted there (else: a bug in the plan). */
  #assertWritable(path: string): void {
    const root = this.#jailsRoot;
    if (!path.startsWith(root)) return;
    const mountpoint = root + (path.slice(root.length).split('/')[0] ?? '');
    if (!this.state.mounts.some((m) => m.mountpoint === mountpoint && m.fstype === 'zfs')) {
      throw Object.assign(new Error(`ENOENT: no clone mounted at ${mountpoint}`), {
        code: 'ENOENT',
      });
    }
  }

  async #health(url: string, token: string): Promise<boolean> {
    const line = `[http] GET ${url}/health`;
    this.commands.push(line);
    this.plan.push(line);
    let answering: string | null = null;
    const result = this.#operate(line, false, () => {
      const address = /^http:\/\/([\d.]+):9223$/.exec(url)?.[1] ?? '';
      const found = [...this.state.jails.entries()].find(([, j]) => j.serviceAddress === address);
      const [name, jail] = found ?? [null, undefined];
      const tokenFile = jail && this.state.files.get(`${jail.path}${TOKEN_FILE}`);
      const healthy =
        jail !== undefined &&
        !jail.dying &&
        jail.serviceRunning &&
        tokenFile?.content.trim() === token &&
        this.state.health === 'ok';
      if (!healthy) return fail('connection refused');
      answering = name;
      return { exitCode: 0, stdout: '', stderr: '' };
    });
    this.#clockMs += 5;
    if (result.exitCode !== 0 || answering === null) return false;
    // A wired real service must answer too (the fake host maps the jail's address to it).
    const real = this.state.processes?.health(answering, token) ?? null;
    if (real !== null && !(await real)) return false;
    const address = /^http:\/\/([\d.]+):/.exec(url)?.[1] ?? '';
    const hostIp = address.replace(/\.(\d+)$/, (_, last: string) => `.${Number(last) - 1}`);
    const state = `all tcp ${hostIp}:41234 -> ${address}:9223       ESTABLISHED:ESTABLISHED`;
    if (!this.state.pfStates.includes(state)) this.state.pfStates.push(state);
    return true;
  }
}
