// FakeDriver: an in-memory JailDriver with the port's observable behaviour (names, CLONE_EXISTS,
// idempotent destroy, reconcile, namespaces), for app and manager tests without root. Several
// FakeDrivers may share one `host` (its clones of every namespace), as hostd instances share one.
import {
  type CloneNamespace,
  DEFAULT_NAMESPACE,
} from '../../../hostd/src/drivers/clone-namespace.js';
import {
  type CloneInfo,
  type CloneSpec,
  cloneName,
  type DestroyResult,
  type JailDriver,
  JailDriverError,
  type KeepPredicate,
  parseCloneName,
  type ReconcileResult,
  type StartOptions,
} from '../../../hostd/src/drivers/jail-driver.js';

export interface FakeClone {
  index: number;
  spec: CloneSpec;
  started: boolean;
  proxy: string | null;
}

export interface FakeDriverOptions {
  namespace?: CloneNamespace;
  /** The modelled host's clones, of every namespace (default: a host of its own). */
  host?: Map<string, FakeClone>;
  /** A started clone's jail-service (default: an unreachable `.invalid` URL, `t-<name>`). */
  service?: (name: string) => { url: string; token: string };
}

export class FakeDriver implements JailDriver {
  readonly kind = 'fake';
  readonly namespace: CloneNamespace;
  /** Every clone on the modelled host, of every namespace. */
  readonly clones: Map<string, FakeClone>;
  readonly calls: string[] = [];
  /** Set to make the next start fail. */
  failNextStart = false;
  /** How many of the next creates fail (a host having a bad moment). */
  failCreates = 0;
  /** `performance.now()` of every create attempt, failed ones included. */
  readonly createTimes: number[] = [];
  readonly #service: (name: string) => { url: string; token: string };

  constructor(options: FakeDriverOptions = {}) {
    this.namespace = options.namespace ?? DEFAULT_NAMESPACE;
    this.clones = options.host ?? new Map();
    this.#service =
      options.service ??
      ((name) => ({ url: `http://${name}.fake.invalid:9223`, token: `t-${name}` }));
  }

  async probe() {
    return { level: 'full' as const, reasons: [] };
  }

  async create(index: number, spec: CloneSpec): Promise<CloneInfo> {
    const name = cloneName(index, this.namespace);
    this.calls.push(`create ${name}`);
    this.createTimes.push(performance.now());
    if (this.failCreates > 0) {
      this.failCreates -= 1;
      throw new JailDriverError('CLONE_CREATE_FAILED', `${name}: scripted create failure`);
    }
    if (this.clones.has(name)) throw new JailDriverError('CLONE_EXISTS', `${name} exists`);
    this.clones.set(name, { index, spec, started: false, proxy: null });
    return this.#info(name);
  }

  async start(name: string, options: StartOptions): Promise<CloneInfo> {
    this.calls.push(`start ${name}`);
    const clone = this.#own(name);
    if (!clone) throw new JailDriverError('CLONE_NOT_FOUND', `${name} does not exist`);
    if (this.failNextStart) {
      this.failNextStart = false;
      throw new JailDriverError('CLONE_START_FAILED', `${name}: scripted failure`);
    }
    clone.started = true;
    clone.proxy = options.egressProxyUrl;
    return this.#info(name);
  }

  async stop(name: string): Promise<CloneInfo | null> {
    const clone = this.#own(name);
    if (!clone) return null;
    clone.started = false;
    return this.#info(name);
  }

  async destroy(name: string): Promise<DestroyResult> {
    this.calls.push(`destroy ${name}`);
    if (this.#own(name)) this.clones.delete(name);
    return { name, leftovers: [] };
  }

  async inspect(name: string): Promise<CloneInfo | null> {
    return this.#own(name) ? this.#info(name) : null;
  }

  async list(): Promise<CloneInfo[]> {
    return [...this.clones.keys()]
      .filter((name) => this.#own(name))
      .map((name) => this.#info(name))
      .sort((a, b) => a.index - b.index);
  }

  async reconcile(keep: KeepPredicate): Promise<ReconcileResult> {
    const kept: string[] = [];
    const destroyed: string[] = [];
    for (const clone of await this.list()) {
      if (clone.state === 'running' && (await keep(clone))) kept.push(clone.name);
      else {
        await this.destroy(clone.name);
        destroyed.push(clone.name);
      }
    }
    return { kept, destroyed, leftovers: {} };
  }

  /** The clone if it is this namespace's; another namespace's clones are not there for us. */
  #own(name: string): FakeClone | undefined {
    return parseCloneName(name, this.namespace) === null ? undefined : this.clones.get(name);
  }

  #info(name: string): CloneInfo {
    const clone = this.clones.get(name);
    if (!clone) throw new Error(`no ${name}`);
    return {
      index: clone.index,
      name,
      taskId: clone.spec.taskId,
      state: clone.started ? 'running' : 'created',
      service: clone.started ? this.#service(name) : null,
      isolation: { level: 'full', reasons: [] },
      network: null,
      display: clone.spec.display ? ':9' : null,
      resources: [`fake:${name}`],
    };
  }
}
