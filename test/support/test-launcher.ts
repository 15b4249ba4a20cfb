// The launcher a test process starts its controlplane children with: one per test process, as
// one per controlplane process in production (the entry makes it there).
import { createControlplaneLauncher } from '../../controlplane/src/platform/runner/process-launcher.js';

export const testLauncher = createControlplaneLauncher();
