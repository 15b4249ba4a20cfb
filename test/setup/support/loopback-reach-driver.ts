// Wraps a driver whose clones live on a modelled host (the in-memory FreeBSD host) so that
// `--verify-host` can reach them from here: the model has no epair interface and no process
// behind the jail's address, so the clone is shown without a network link (its egress proxy then
// listens on 127.0.0.1) and its service URL points at a loopback stub jail-service holding the
// token the real driver generated and wrote into the jail. A connection probe from inside a clone
// has each of those addresses mapped back to the jail's real one (its host end, its proxy port, a
// peer's service address), so the model's PF state decides. Everything else is the inner driver's.
import type { InsideTarget } from '../../../hostd/src/drivers/inside-probe.js';
import type {
  CloneInfo,
  DestroyResult,
  JailDriver,
  KeepPredicate,
  StartOptions,
} from '../../../hostd/src/drivers/jail-driver.js';
import { type StubJailService, startStubJailService } from './stub-jail-service.js';

/** What the report must say a run over the modelled FreeBSD host does not show. */
export const FAKE_FREEBSD_NOTES = [
  'FAKE FreeBSD host (test): zfs/jail/ifconfig/pfctl/rctl commands ran against the in-memory model',
  'not shown by the fake: ZFS, VNET/epair, PF rules and rctl limits in effect; the jail-service is a loopback stand-in and the egress proxy listens on 127.0.0.1; probes from inside a jail are answered by the model from its PF anchor rules',
];

export class LoopbackReachDriver implements JailDriver {
  readonly kind: string;
  readonly namespace: JailDriver['namespace'];
  readonly #inner: JailDriver;
  readonly #services = new Map<string, StubJailService>();
  readonly #proxies = new Map<string, string>();
  /** The inner driver's proxy port on each jail's host end (its PF anchor passes only that). */
  readonly #proxyPort: number;

  constructor(inner: JailDriver, proxyPort = 3128) {
    this.#inner = inner;
    this.#proxyPort = proxyPort;
    this.kind = inner.kind;
    this.namespace = inner.namespace;
  }

  probe() {
    return this.#inner.probe();
  }

  preflight(): Promise<string[]> {
    return this.#inner.preflight?.() ?? Promise.resolve([]);
  }

  async create(index: number, spec: Parameters<JailDriver['create']>[1]) {
    return this.#view(await this.#inner.create(index, spec));
  }

  async start(name: string, options: StartOptions): Promise<CloneInfo> {
    const info = await this.#inner.start(name, options);
    if (options.egressProxyUrl) this.#proxies.set(name, new URL(options.egressProxyUrl).host);
    if (info.service) {
      const stub = await startStubJailService({
        token: info.service.token,
        proxyUrl: options.egressProxyUrl,
      });
      this.#services.set(name, stub);
    }
    return this.#view(info);
  }

  async stop(name: string) {
    const info = await this.#inner.stop(name);
    return info && this.#view(info);
  }

  async destroy(name: string): Promise<DestroyResult> {
    await this.#services.get(name)?.close();
    this.#services.delete(name);
    return this.#inner.destroy(name);
  }

  async inspect(name: string) {
    const info = await this.#inner.inspect(name);
    return info && this.#view(info);
  }

  async list() {
    return (await this.#inner.list()).map((info) => this.#view(info));
  }

  async connectFromInside(name: string, target: InsideTarget) {
    const connect = this.#inner.connectFromInside?.bind(this.#inner);
    if (!connect) throw new Error(`${this.kind} driver cannot probe inside a clone`);
    return connect(name, { ...target, ...(await this.#real(name, target)) });
  }

  /** The jail-side address behind one this wrapper shows. */
  async #real(name: string, target: InsideTarget): Promise<{ host: string; port: number }> {
    const shown = `${target.host}:${target.port}`;
    for (const [other, stub] of this.#services) {
      const service = (await this.#inner.inspect(other))?.service;
      if (service && new URL(stub.url).host === shown) {
        const url = new URL(service.url);
        return { host: url.hostname, port: Number(url.port) };
      }
    }
    const hostEnd = (await this.#inner.inspect(name))?.network?.hostAddress;
    if (hostEnd && this.#proxies.get(name) === shown)
      return { host: hostEnd, port: this.#proxyPort };
    if (hostEnd && target.host === '127.0.0.1') return { host: hostEnd, port: target.port };
    return target;
  }

  reconcile(keep: KeepPredicate) {
    return this.#inner.reconcile(keep);
  }

  #view(info: CloneInfo): CloneInfo {
    const stub = this.#services.get(info.name);
    const service = stub && info.service ? { ...info.service, url: stub.url } : info.service;
    return { ...info, network: null, service };
  }
}
