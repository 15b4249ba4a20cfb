/** A point or size component pair; the unit depends on where it is used (model units, screenshot px, CSS px). */
export interface Position {
  x: number;
  y: number;
}

/** Width and height in pixels. */
export interface Size {
  width: number;
  height: number;
}

/**
 * One function call written by the model, e.g. `click(start_box='(512,88)')`.
 * `start` / `end` are the centres of `start_box` / `end_box` in **model units** (0–1000 for
 * UI-TARS 1.0, smart-resized image pixels for 1.5); they are absent when the box is absent or
 * not a valid point or box (the raw text stays in `args`).
 */
export interface ModelAction {
  /** Function name, lower-cased (`CLICK` → `click`). */
  name: string;
  /** Keyword arguments, keys lower-cased, aliases applied (`point` → `start_box`), quoted values unescaped. */
  args: Record<string, string>;
  start?: Position;
  end?: Position;
}

/** A successfully parsed model turn. */
export interface ParsedPrediction {
  /** The `Thought:` text, or the `Action_Summary:` text for the Reflection/Action_Summary forms; `''` if none. */
  thought: string;
  /** The `Reflection:` text when the turn starts with `Reflection:`, else `null`. */
  reflection: string | null;
  /** The `Action_Summary:` text, when the turn has one. */
  actionSummary?: string;
  /** The calls of the action block, in order (at least one). */
  actions: ModelAction[];
  /** The original, untrimmed model text. */
  raw: string;
}

/** Why a model turn could not be parsed. */
export type PredictionParseErrorCode = 'NO_ACTION' | 'MALFORMED_ACTION';

/** Failure of {@link ParsedPrediction} parsing; `message` is suitable for feeding back to the model. */
export interface PredictionParseError {
  code: PredictionParseErrorCode;
  message: string;
  raw: string;
}

/** Result of `parsePrediction`: a value, never a throw. */
export type PredictionParseResult =
  | { success: true; data: ParsedPrediction }
  | { success: false; error: PredictionParseError };
