// Issue 22 (2): golden coordinates of every model profile at 1280×800 and 1366×768, DPR 2
// (test/support/golden/golden-suite.ts; 1920×1080 at DPR 2, the heaviest screens, is
// golden-coordinates-dpr2-fhd.test.ts, for time).
import { goldenSuite } from '../support/golden/golden-suite.js';

goldenSuite([2], 'own', [1280, 1366]);
