// The qwen2.5-vl profile: Qwen2.5-VL and its computer-use derivatives (Fara-7B; Holo1 and
// GUI-Owl speak the same tool) with the cookbook's `computer_use` function. Points are pixels of
// the image as sent, which is smart-resized (factor 28) here so that the server's own resize
// leaves it as it is, and the tool states that image's size as the screen's resolution.
// docs/models/qwen2.5-vl.md.
import { createQwenProfile } from './qwen-computer-use.js';

/** Patch 14 × merge 2 (Qwen2.5-VL preprocessor_config.json; the cookbook's factor). */
const FACTOR = 28;

export const qwen25VlProfile = createQwenProfile({
  name: 'qwen2.5-vl',
  variant: 'qwen2.5',
  coordinates: { kind: 'image-pixels' },
  resize: {
    factor: FACTOR,
    // The processor's default minimum (4 tokens of 28×28).
    minPixels: 4 * FACTOR * FACTOR,
    // 2700 tokens ≈ 2.1 MP: a 1920×1080 page at DPR 1 is sent at 1932×1092 (not shrunk); DPR-2
    // screens are brought down to about that, three screenshots stay near 8k tokens.
    maxPixels: 2700 * FACTOR * FACTOR,
  },
  maxImages: 3,
  display: (image) => ({ width: image.width, height: image.height }),
  limits: [
    'middle_click, web_search, pause_and_memorize_fact and refresh are refused with a note',
    'left_click_drag needs a mouse_move to its start in the same reply',
    'scroll moves by Clawdie’s scroll step; the sign of pixels gives the direction',
    'the server must not shrink the image further (keep its max_pixels ≥ 2,116,800)',
  ],
});
