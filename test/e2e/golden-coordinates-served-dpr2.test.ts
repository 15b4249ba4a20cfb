// Golden coordinates of the self-hosted profiles on a server that decodes WebP, DPR 2
// (golden-coordinates-served.test.ts has DPR 1 and says why).
import { goldenSuite } from '../support/golden/golden-suite.js';

goldenSuite([2], 'served');
