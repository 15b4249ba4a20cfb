// A JailDriver over the in-memory FakeDriver whose clones answer on loopback through a stub
// jail-service (stub-jail-service.ts). Rigging: `leftover` makes destroy leave a resource behind
// and keep the clone listed; `bypassProxy` makes the clone's "browser" ignore the egress proxy.
import type {
  CloneInfo,
  DestroyResult,
  JailDriver,
  StartOptions,
} from '../../../hostd/src/drivers/jail-driver.js';
import { FakeDriver } from '../../hostd/support/fake-jail-driver.js';
import { type StubJailService, startStubJailService } from './stub-jail-service.js';

export interface StubRigging {
  leftover?: string;
  bypassProxy?: boolean;
}

export class StubCloneDriver extends FakeDriver implements JailDriver {
  readonly #rigging: StubRigging;
  readonly #services = new Map<string, StubJailService & { token: string }>();
  readonly #stuck = new Set<string>();

  constructor(rigging: StubRigging = {}) {
    super();
    this.#rigging = rigging;
  }

  override async start(name: string, options: StartOptions): Promise<CloneInfo> {
    await super.start(name, options);
    const token = `stub-token-${name}`;
    const service = await startStubJailService({
      token,
      proxyUrl: options.egressProxyUrl,
      bypassProxy: this.#rigging.bypassProxy ?? false,
    });
    this.#services.set(name, { ...service, token });
    return this.#withService(await super.inspect(name));
  }

  override async destroy(name: string): Promise<DestroyResult> {
    await this.#services.get(name)?.close();
    this.#services.delete(name);
    if (this.#rigging.leftover) {
      this.#stuck.add(name);
      return { name, leftovers: [this.#rigging.leftover] };
    }
    return super.destroy(name);
  }

  override async inspect(name: string): Promise<CloneInfo | null> {
    const info = await super.inspect(name);
    return info ? this.#withService(info) : null;
  }

  override async list(): Promise<CloneInfo[]> {
    return (await super.list()).map((info) => this.#withService(info));
  }

  #withService(info: CloneInfo | null): CloneInfo {
    if (!info) throw new Error('stub clone vanished');
    const stub = this.#services.get(info.name);
    const resources = this.#stuck.has(info.name) ? [this.#rigging.leftover ?? ''] : info.resources;
    return { ...info, resources, service: stub ? { url: stub.url, token: stub.token } : null };
  }
}
