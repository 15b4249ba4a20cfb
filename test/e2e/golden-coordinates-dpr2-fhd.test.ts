// Issue 22 (2): golden coordinates of every model profile at 1920×1080, DPR 2 (3840×2160
// screenshots; test/support/golden/golden-suite.ts).
import { goldenSuite } from '../support/golden/golden-suite.js';

goldenSuite([2], 'own', [1920]);
