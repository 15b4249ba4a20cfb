// One egress decision of a clone's proxy, before any byte leaves the host: the allowlist (host
// and port), then DNS, then every resolved address against the address policy. The proxy then
// connects to the returned address, the one that was checked.
import type { AddressPolicy } from './address-policy.js';
import type { DomainMatcher } from './domain-rules.js';
import type { HostResolver } from './host-resolver.js';

export interface EgressRules {
  allowed: DomainMatcher;
  addresses: AddressPolicy;
  resolver: HostResolver;
}

export type EgressDecision =
  | { kind: 'connect'; address: string }
  | { kind: 'refused'; reason: 'not-allowed' }
  | { kind: 'refused'; reason: 'blocked-address'; address: string }
  | { kind: 'unresolved'; message: string };

/** Never rejects: a DNS failure is `unresolved` (the proxy answers 502). */
export async function decideEgress(
  host: string,
  port: number,
  rules: EgressRules,
): Promise<EgressDecision> {
  if (!rules.allowed(host, port)) return { kind: 'refused', reason: 'not-allowed' };
  let answers: Awaited<ReturnType<HostResolver['resolve']>>;
  try {
    answers = await rules.resolver.resolve(host);
  } catch (error) {
    return { kind: 'unresolved', message: (error as Error).message };
  }
  const first = answers[0];
  if (!first) return { kind: 'unresolved', message: `${host} has no address` };
  // Every answer, not only the one used: a name that also resolves inside is refused outright.
  const blocked = answers.find(
    (answer) => rules.addresses.check(answer.address, port) !== 'allowed',
  );
  if (blocked) {
    const shown = blocked.family === 6 ? `[${blocked.address}]` : blocked.address;
    return { kind: 'refused', reason: 'blocked-address', address: `${shown}:${port}` };
  }
  return { kind: 'connect', address: first.address };
}
