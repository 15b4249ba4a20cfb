// Adapter: the HTTP connections of one browser lease. Every call to a clone's jail-service goes
// through its lease's own pool, closed when the lease is released: a kept-alive connection never
// outlives its clone. One that did could be handed to the next clone at the same address and
// port (a restarted hostd numbers its clones from 1 again; a clone whose network is deleted
// mid-close never sends its FIN), and the first request on it would fail with ECONNRESET.
import type { Agent } from 'undici';

export interface LeaseConnections {
  /** `fetch` over this lease's own connections. */
  readonly fetch: typeof fetch;
  /** Drops every connection at once (a request still in flight fails). Idempotent. */
  close(): Promise<void>;
}

/** undici costs ~50 ms to load: only a process that leases a browser pays it, once. */
let undici: ReturnType<typeof importUndici> | null = null;
const importUndici = () => import('undici');
function loadUndici() {
  undici ??= importUndici();
  return undici;
}

export function leaseConnections(): LeaseConnections {
  let agent: Agent | null = null;
  let closed: Promise<void> | null = null;
  const leaseFetch = async (input: string | URL, init?: RequestInit) => {
    const { Agent, fetch: undiciFetch } = await loadUndici();
    if (closed) throw new TypeError('fetch failed: the browser lease was released');
    agent ??= new Agent();
    return undiciFetch(input, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
    });
  };
  return {
    fetch: leaseFetch as unknown as typeof fetch,
    close() {
      closed ??= agent ? agent.destroy().catch(() => undefined) : Promise.resolve();
      return closed;
    },
  };
}
