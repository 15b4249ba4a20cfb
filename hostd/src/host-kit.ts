// What another workspace (the setup CLI's `--verify-host`) needs to build clones exactly as hostd
// does: its config loader, its driver selection, its clone manager and address policy (the real
// runners come from @clawdie/kit/runner). Re-exports only; hostd's main.ts is the
// reference composition.
export { CloneManager, type CloneManagerOptions } from './clones/clone-manager.js';
export { type HostdConfig, loadConfig } from './config.js';
export type { FreeBsdLayout } from './drivers/freebsd/names.js';
export { failClosedRule, mainRulesProblems } from './drivers/freebsd/pf-main-rules.js';
export type { InsideConnect, InsideTarget } from './drivers/inside-probe.js';
export type {
  CloneIsolation,
  CloneSpec,
  DestroyResult,
  JailDriver,
  ReconcileResult,
} from './drivers/jail-driver.js';
export { createDriver, freeBsdLayout } from './drivers/select-driver.js';
export { HostdError } from './errors.js';
export { createAddressPolicy } from './proxy/address-policy.js';
