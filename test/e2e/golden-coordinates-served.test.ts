// Golden coordinates of the self-hosted profiles whose server says it decodes WebP (UI-TARS-1.5 on
// vLLM, Qwen3-VL on SGLang; agent/model/model-server.ts): the images arrive as WebP and the click
// still lands on the marker, at 1280×800, 1366×768 and 1920×1080, DPR 1
// (test/support/golden/golden-suite.ts; DPR 2 is golden-coordinates-served-dpr2.test.ts, for
// time: both ran 98 s on a CI machine, over half the file timeout).
import { goldenSuite } from '../support/golden/golden-suite.js';

goldenSuite([1], 'served');
