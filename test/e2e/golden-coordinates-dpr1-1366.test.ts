// Issue 22 (2): golden coordinates of every model profile at 1366×768, DPR 1
// (test/support/golden/golden-suite.ts).
import { goldenSuite } from '../support/golden/golden-suite.js';

goldenSuite([1], 'own', [1366]);
