// Issue 20 point 6, hostd clones as root: the hostile-model suite and case list
// (test/security/support/hostile-cases.ts) against the controlplane with a real in-process hostd —
// each task in its own Linux clone behind hostd's egress proxy with the task's allowlist, four at
// once (test/security/support/hostile-modes.ts). The three loopback sites are hostd egress
// exceptions, so only the policy and the task's domains (shop and payment host) keep the attacker
// out.
import { requires } from '../support/capabilities.js';
import { clonesMode } from './support/hostile-modes.js';
import { registerHostileSuite } from './support/hostile-suite.js';

registerHostileSuite(clonesMode, requires('root', 'linux-clones', 'chromium'));
