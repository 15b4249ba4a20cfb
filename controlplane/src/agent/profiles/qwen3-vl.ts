// The qwen3-vl profile: Qwen3-VL with the cookbook's `computer_use` function, which adds
// `hscroll` and `answer` (and `triple_click`, refused). Points are relative, 0–1000 across the
// image (the cookbook declares a 1000×1000 screen and maps x / 1000 × width); the image is
// smart-resized with factor 32 so that the server's own resize leaves it as it is.
// docs/models/qwen3-vl.md.
import { createQwenProfile } from './qwen-computer-use.js';

/** Patch 16 × merge 2 (Qwen3-VL README, "image_patch_size"; resized sides are multiples of 32). */
const FACTOR = 32;
/** Qwen3-VL cookbooks/computer_use.ipynb: `display_width_px: 1000`, coordinate / 1000 × width. */
const DIVISOR = 1000;

export const qwen3VlProfile = createQwenProfile({
  name: 'qwen3-vl',
  variant: 'qwen3',
  coordinates: { kind: 'relative', divisor: DIVISOR },
  resize: {
    factor: FACTOR,
    // 4 tokens, qwen-vl-utils IMAGE_MIN_TOKEN_NUM.
    minPixels: 4 * FACTOR * FACTOR,
    // 2048 tokens ≈ 2.1 MP: a 1920×1080 page at DPR 1 is sent at 1920×1088 (not shrunk).
    maxPixels: 2048 * FACTOR * FACTOR,
  },
  maxImages: 3,
  display: () => ({ width: DIVISOR, height: DIVISOR }),
  limits: [
    'middle_click, triple_click, web_search, pause_and_memorize_fact and refresh are refused with a note',
    'left_click_drag needs a mouse_move to its start in the same reply',
    'scroll and hscroll move by Clawdie’s scroll step; the sign of pixels gives the direction',
  ],
});
