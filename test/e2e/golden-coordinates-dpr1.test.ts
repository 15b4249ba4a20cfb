// Issue 22 (2): golden coordinates of every model profile at 1280×800, 1366×768 and 1920×1080,
// DPR 1 (test/support/golden/golden-suite.ts).
import { goldenSuite } from '../support/golden/golden-suite.js';

goldenSuite([1]);
