// Golden coordinates of the self-hosted profiles whose server says it decodes WebP (UI-TARS-1.5 on
// vLLM, Qwen3-VL on SGLang; agent/model/model-server.ts): the images arrive as WebP and the click
// still lands on the marker, at 1280×800, 1366×768 and 1920×1080, DPR 1 and 2
// (test/support/golden/golden-suite.ts).
import { goldenSuite } from '../support/golden/golden-suite.js';

goldenSuite([1, 2], 'served');
