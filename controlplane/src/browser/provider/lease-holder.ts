// The name a controlplane gives itself on every hostd lease: `<store id>/<instance id>`, its
// store's identity (InstanceRepository.storeId, one per database) and its instance id. hostd keeps
// it as the lease's opaque `holder`; the store id is what lets a controlplane tell its own store's
// leases from those of a controlplane on another data dir or database sharing the hostd.

/** The parts of a holder name; see `holderName`. */
export interface HolderParts {
  readonly store: string;
  readonly instance: string;
}

/** `<store>/<instance>`: the holder a controlplane names on its leases. */
export function holderName(parts: HolderParts): string {
  return `${parts.store}/${parts.instance}`;
}

/**
 * The store and instance of a holder name; null for a holder without a store id (a bare instance
 * id, named by a controlplane older than store ids) or any other form.
 */
export function parseHolder(holder: string): HolderParts | null {
  const slash = holder.indexOf('/');
  if (slash <= 0 || slash === holder.length - 1 || holder.indexOf('/', slash + 1) !== -1)
    return null;
  return { store: holder.slice(0, slash), instance: holder.slice(slash + 1) };
}
