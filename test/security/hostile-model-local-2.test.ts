// Issue 20 point 6, local mode: the controlplane without hostd starts its own jail-service and Chromium
// behind its egress proxy, the cases one after another
// (test/security/support/hostile-modes.ts): part 2 of the hostile-model cases
// (test/security/support/hostile-cases.ts), the other half in hostile-model-local.test.ts. A real
// OpenAI-compatible model server plays the hostile model through the real model adapter; the shop,
// the payment host and the attacker are three loopback ports.
import { requires } from '../support/capabilities.js';
import { localMode } from './support/hostile-modes.js';
import { registerHostileSuite } from './support/hostile-suite.js';

registerHostileSuite(localMode, requires('chromium'), 2);
