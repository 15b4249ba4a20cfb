// Issue 20 point 6, hostd clones as root: each task in its own Linux clone behind hostd's
// egress proxy with the task's allowlist, four at once
// (test/security/support/hostile-modes.ts): part 2 of the hostile-model cases
// (test/security/support/hostile-cases.ts), the other half in hostile-model-clones.test.ts. A real
// OpenAI-compatible model server plays the hostile model through the real model adapter; the shop,
// the payment host and the attacker are three loopback ports.
import { requires } from '../support/capabilities.js';
import { clonesMode } from './support/hostile-modes.js';
import { registerHostileSuite } from './support/hostile-suite.js';

registerHostileSuite(clonesMode, requires('root', 'linux-clones', 'chromium'), 2);
