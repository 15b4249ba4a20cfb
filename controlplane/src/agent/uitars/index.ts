/** UI-TARS protocol layer: prompts, model-output parsing, coordinates and browser-action planning. */
export type { ActionSpaceOptions } from './action-space.js';
export {
  actionSpaceLines,
  BROWSER_NAVIGATION_LINES,
  CALL_USER_LINE,
  FINISHED_LINE,
  V1_0_OTHER_LINES,
  V1_0_POINTER_LINES,
  V1_5_OTHER_LINES,
  V1_5_POINTER_LINES,
} from './action-space.js';
export { parseBoxValue } from './box-value.js';
export type {
  BrowserPlanContext,
  BrowserPlanError,
  BrowserPlanErrorCode,
  BrowserPlanResult,
  PlannedStep,
} from './browser-plan-types.js';
export type {
  CoordinateContext,
  CoordinateMode,
  MappedPoint,
  ResolvedSpace,
} from './coordinates.js';
export {
  clampToViewport,
  MODEL_RANGE_TOLERANCE,
  mapModelPoint,
  modelDivisors,
  modelPointToScreenshot,
  RELATIVE_DIVISOR,
  screenshotToCss,
} from './coordinates.js';
export { parsePrediction } from './parse-prediction.js';
export type { SystemPromptOptions } from './prompt.js';
export { buildSystemPrompt } from './prompt.js';
export {
  IMAGE_FACTOR,
  MAX_PIXELS_V1_5,
  MAX_RATIO,
  MIN_PIXELS,
  roundHalfEven,
  smartResize,
} from './smart-resize.js';
export { SUPPORTED_ACTION_NAMES, toBrowserActions } from './to-browser-actions.js';
export type {
  ModelAction,
  ParsedPrediction,
  Position,
  PredictionParseError,
  PredictionParseErrorCode,
  PredictionParseResult,
  Size,
} from './types.js';
