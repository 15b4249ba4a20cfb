// The clone namespace of one hostd: which clones on the host are its own. Every clone name and
// every OS resource derived from it carries the namespace, and the numeric resources (uids,
// addresses, X displays, ports) come from the namespace's own slot, so a driver observes, adopts
// and destroys only what its namespace created (docs/operations.md, "Several hostd on one host").

/** The namespace of a hostd that names none: today's names (`browsertask007`, `bt007h`). */
export const DEFAULT_NAMESPACE_NAME = 'default';

/**
 * 1–8 characters, a lowercase letter first, then lowercase letters and digits. The longest
 * derived interface name is `bt` + namespace + NNN + one letter = 14 characters: within Linux's
 * IFNAMSIZ (15 usable) for veth ends and FreeBSD's for renamed epair ends.
 */
export const NAMESPACE_NAME_PATTERN = /^[a-z][a-z0-9]{0,7}$/;

/** Slot 0 is the default namespace's; named namespaces hash onto 1 … NAMESPACE_SLOTS - 1. */
export const NAMESPACE_SLOTS = 16;
/** Each slot owns this many uids, X displays and reduced-isolation ports (one per index). */
export const SLOT_SPAN = 1000;
/** Each slot owns a /20 of 10.78.0.0/16: 4096 addresses, a /30 per index. */
export const SLOT_ADDRESSES = 4096;

export interface CloneNamespace {
  readonly name: string;
  /** What clone and interface names carry: empty for the default namespace, else the name. */
  readonly infix: string;
  /** 0 for the default namespace; 1 … 15 for a named one (see namespaceSlot). */
  readonly slot: number;
}

/**
 * The namespace called `name`. Throws a plain Error on an invalid name (config.ts validates the
 * variable first, so this is a bug).
 */
export function cloneNamespace(name: string): CloneNamespace {
  if (!NAMESPACE_NAME_PATTERN.test(name)) {
    throw new Error(`clone namespace must match ${NAMESPACE_NAME_PATTERN}, got ${name}`);
  }
  const isDefault = name === DEFAULT_NAMESPACE_NAME;
  return Object.freeze({
    name,
    infix: isDefault ? '' : name,
    slot: isDefault ? 0 : namespaceSlot(name),
  });
}

export const DEFAULT_NAMESPACE: CloneNamespace = cloneNamespace(DEFAULT_NAMESPACE_NAME);

/**
 * A named namespace's slot: FNV-1a of the name onto 1 … 15. Two namespaces may share a slot; the
 * owner lock refuses to run the second while the first lives (namespace-owner.ts).
 */
export function namespaceSlot(name: string): number {
  let hash = 0x811c9dc5;
  for (const char of name) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return 1 + (hash % (NAMESPACE_SLOTS - 1));
}

/** The first uid / display / port of the slot's span above `base` (index N adds N). */
export function slotBase(base: number, namespace: CloneNamespace): number {
  return base + namespace.slot * SLOT_SPAN;
}

/** The slot's first address offset within 10.78.0.0/16. */
export function slotAddressOffset(namespace: CloneNamespace): number {
  return namespace.slot * SLOT_ADDRESSES;
}
