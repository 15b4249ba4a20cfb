// Public surface of `@clawdie/hostd/egress`: the egress proxy every clone's browser goes through,
// and its address policy — also what the controlplane puts in front of its one local browser when
// there is no hostd, so both modes run the same allowlist and the same refusals (docs/security.md).
export {
  type AddressPolicy,
  type AddressPolicyOptions,
  createAddressPolicy,
  parseAddressPort,
} from './address-policy.js';
export {
  type EgressProxy,
  type EgressProxyOptions,
  type RefusedAttempt,
  startEgressProxy,
} from './egress-proxy.js';
export type { HostResolver, ResolvedAddress } from './host-resolver.js';
