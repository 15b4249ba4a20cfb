// The screenshot size sent to Claude's computer tool, which is also the display the tool declares
// (display_width_px × display_height_px), so the model's pixels are the image's pixels 1:1.
// Two rules, in Anthropic's order of preference:
// 1. the reference implementation's scaling targets (anthropics/anthropic-quickstarts,
//    computer-use-demo/computer_use_demo/tools/computer.py, MAX_SCALING_TARGETS and
//    scale_coordinates): a screen whose aspect ratio is within 0.02 of XGA, WXGA or FWXGA and
//    that is wider than that target is scaled to it exactly;
// 2. otherwise the Messages API's own limit (platform.claude.com/docs/en/build-with-claude/vision,
//    "Evaluate image size"): long edge ≤ 1568 px and ≤ ~1.15 megapixels, aspect kept — an image
//    over it would be downscaled by the server and the coordinates would no longer be ours.
import type { Size } from '../uitars/types.js';

/** Scaling targets of the reference implementation (computer.py `MAX_SCALING_TARGETS`). */
export const ANTHROPIC_SCALING_TARGETS: readonly Size[] = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
];
/** Largest long edge the vision encoder takes without resizing. */
export const ANTHROPIC_MAX_LONG_EDGE = 1568;
/** Largest pixel count the vision encoder takes without resizing (~1.15 MP). */
export const ANTHROPIC_MAX_PIXELS = 1_150_000;
/** How far an aspect ratio may differ from a target's and still use it (computer.py). */
const ASPECT_TOLERANCE = 0.02;

/** The size a `width × height` screenshot is sent at (and the display declared). */
export function anthropicImageSize(width: number, height: number): Size {
  if (!(width > 0 && height > 0)) return { width, height };
  const ratio = width / height;
  // computer.py stops at the first target of a matching aspect, smaller or not.
  const target = ANTHROPIC_SCALING_TARGETS.find(
    (size) => Math.abs(size.width / size.height - ratio) < ASPECT_TOLERANCE,
  );
  if (target !== undefined && target.width < width) return { ...target };
  const scale = Math.min(
    1,
    ANTHROPIC_MAX_LONG_EDGE / Math.max(width, height),
    Math.sqrt(ANTHROPIC_MAX_PIXELS / (width * height)),
  );
  if (scale === 1) return { width, height };
  return {
    width: Math.max(1, Math.floor(width * scale)),
    height: Math.max(1, Math.floor(height * scale)),
  };
}
