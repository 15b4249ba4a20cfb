// The jail hosts tasks may run on: register one (a fresh token, sealed with the vault key and
// shown once), list them with their health, drain one, remove one (its token is gone with it).
// Every change is audited to the admin who made it.
import { randomBytes } from 'node:crypto';
import { AppError } from '../errors.js';
import type { AuditLog } from '../governance/audit/audit-log.js';
import { openText, sealText } from '../governance/credentials/secret-vault.js';
import type { HostRecord, HostRepository } from '../platform/store/host-repository.js';

/** What `clawdie hosts add` asks for. */
export interface NewHost {
  name: string;
  url: string;
  labels: Record<string, string>;
  capacity: number;
}

/** A host as listed: never its token. `health` is judged against the heartbeat's age. */
export interface HostView extends Omit<HostRecord, 'token'> {
  health: 'up' | 'down' | 'unknown';
}

export interface HostRegistry {
  /** Registers a host; returns the token to configure on it (CLAWDIE_HOSTD_TOKEN), once. */
  add(host: NewHost, actor: string): Promise<{ host: HostView; token: string }>;
  list(): Promise<HostView[]>;
  drain(name: string, actor: string): Promise<HostView>;
  /** Takes new tasks again after a drain. */
  resume(name: string, actor: string): Promise<HostView>;
  /** Refuses a host that is up and holds clones unless `force` (its tasks would be cut off). */
  remove(name: string, actor: string, options?: { force?: boolean }): Promise<void>;
  /** Where to reach a host and the token it expects. */
  endpoint(name: string): Promise<{ url: string; token: string }>;
}

export interface HostRegistryDeps {
  store: HostRepository;
  /** The vault key (CLAWDIE_SECRETS_KEY_FILE) that seals host tokens. */
  key: () => Buffer;
  audit: AuditLog;
  now: () => number;
  /** A host whose last heartbeat is older than this is down. */
  staleMs: number;
}

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const LABEL_KEY = /^[a-z][a-z0-9_-]{0,31}$/;
const LABEL_VALUE = /^[A-Za-z0-9_.:-]{1,64}$/;

export function createHostRegistry(deps: HostRegistryDeps): HostRegistry {
  const aad = (name: string) => Buffer.from(`host\u0000${name}`);
  const view = (record: HostRecord): HostView => {
    const { token: _sealed, ...rest } = record;
    return { ...rest, health: healthOf(record, deps.now(), deps.staleMs) };
  };
  const existing = async (name: string) => {
    const record = await deps.store.get(name);
    if (!record) throw new AppError('HOST_NOT_FOUND', `no host named ${name} is registered`);
    return record;
  };
  const record = (
    type: 'host-added' | 'host-drained' | 'host-resumed' | 'host-removed',
    actor: string,
    data: object,
  ) => deps.audit.append({ type, actor, data: { ...data } });

  return {
    async add(host, actor) {
      checkNewHost(host);
      const token = randomBytes(32).toString('base64url');
      const addedAt = deps.now();
      await deps.store.add({
        ...host,
        state: 'active',
        token: sealText(deps.key(), aad(host.name), token),
        addedAt,
      });
      await record('host-added', actor, {
        host: host.name,
        url: host.url,
        labels: host.labels,
        capacity: host.capacity,
      });
      return { host: view(await existing(host.name)), token };
    },
    list: async () => (await deps.store.list()).map(view),
    async drain(name, actor) {
      await existing(name);
      await deps.store.setState(name, 'draining');
      await record('host-drained', actor, { host: name });
      return view(await existing(name));
    },
    async resume(name, actor) {
      await existing(name);
      await deps.store.setState(name, 'active');
      await record('host-resumed', actor, { host: name });
      return view(await existing(name));
    },
    async remove(name, actor, options = {}) {
      const found = view(await existing(name));
      if (!options.force && found.health === 'up' && found.clones > 0)
        throw new AppError(
          'HOST_BUSY',
          `host ${name} is up and holds ${found.clones} clone(s): drain it (clawdie hosts drain ${name}) and wait, or remove it with --force`,
        );
      await deps.store.remove(name);
      await record('host-removed', actor, {
        host: name,
        clones: found.clones,
        forced: !!options.force,
      });
    },
    async endpoint(name) {
      const found = await existing(name);
      return { url: found.url, token: openText(deps.key(), aad(name), found.token) };
    },
  };
}

/**
 * Up: a heartbeat within `staleMs`; down: an older one or a failed attempt since; unknown: none
 * yet. The age is the store's (`heartbeatAgeMs`, PostgreSQL's clock) when it keeps one, so
 * replicas on machines whose clocks disagree never lose a host the other just reached (its tasks
 * would end HOST_LOST); on SQLite, one host's file, it is `now` minus the recorded time.
 */
export function healthOf(
  host: Pick<HostRecord, 'heartbeatAt' | 'heartbeatAgeMs' | 'lastError'>,
  now: number,
  staleMs: number,
): HostView['health'] {
  const age = heartbeatAgeOf(host, now);
  if (age === null) return host.lastError === null ? 'unknown' : 'down';
  return age <= staleMs ? 'up' : 'down';
}

/** How long ago the host's last good heartbeat was (null: never), by the store's clock if it has one. */
export function heartbeatAgeOf(
  host: Pick<HostRecord, 'heartbeatAt' | 'heartbeatAgeMs'>,
  now: number,
): number | null {
  if (host.heartbeatAt === null) return null;
  return host.heartbeatAgeMs ?? now - host.heartbeatAt;
}

function checkNewHost(host: NewHost): void {
  const bad = (message: string) => new AppError('HOST_INVALID', message);
  if (!NAME.test(host.name))
    throw bad(`host name "${host.name}": lower-case letters, digits and '-', at most 63`);
  let url: URL;
  try {
    url = new URL(host.url);
  } catch {
    throw bad(`host URL "${host.url}" is not a URL (e.g. http://10.0.0.5:7300)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw bad(`host URL "${host.url}": http or https only`);
  if (url.username || url.password)
    throw bad('host URL: no credentials in the URL (the token is made for you)');
  if (!Number.isInteger(host.capacity) || host.capacity < 1 || host.capacity > 1024)
    throw bad(`capacity ${host.capacity}: a whole number from 1 to 1024`);
  for (const [key, value] of Object.entries(host.labels)) {
    if (!LABEL_KEY.test(key)) throw bad(`label key "${key}": a-z, digits, '_' or '-', at most 32`);
    if (!LABEL_VALUE.test(value))
      throw bad(`label ${key}="${value}": at most 64 of A-Z a-z 0-9 _ . : -`);
  }
}
