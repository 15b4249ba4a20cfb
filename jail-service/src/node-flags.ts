// The node flags the jail-service runs with in a clone (hostd's select-driver.ts passes them),
// and with which its bundle's V8 code cache is written (scripts/bundle.mjs): V8 refuses a cache
// made under other flags.

/**
 * `--max-semi-space-size=1`: V8's young generation grows to 1 MiB semispaces instead of 16
 * (screenshots pass through as short-lived buffers): ≈ 12 MiB less PSS per clone, no measurable
 * cost per step (docs/performance.md).
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];
