/**
 * The action-space lines of the UI-TARS system prompts, byte for byte: models were trained on
 * them (uitars-protocol.md §4). Sources: `apps/ui-tars/src/main/agent/prompts.ts`
 * (`getSystemPromptV1_5`, `getSystemPromptDoubao_15_20B`), `NutJSElectronOperator.MANUAL`, and the
 * model repository's `COMPUTER_USE` prompt for the `finished(content=…)` line.
 */

/** `click` … `hotkey` of UI-TARS-1.5 (absolute coordinates in `<|box_start|>` tokens). */
export const V1_5_POINTER_LINES: readonly string[] = [
  "click(start_box='<|box_start|>(x1,y1)<|box_end|>')",
  "left_double(start_box='<|box_start|>(x1,y1)<|box_end|>')",
  "right_single(start_box='<|box_start|>(x1,y1)<|box_end|>')",
];

/** The rest of the UI-TARS-1.5 lines, up to and including `wait()`. */
export const V1_5_OTHER_LINES: readonly string[] = [
  "drag(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')",
  "hotkey(key='ctrl c') # Split keys with a space and use lowercase. Also, do not use more than 3 keys in one hotkey action.",
  "type(content='xxx') # Use escape characters \\', \\\", and \\n in content part to ensure we can parse the content in normal python string format. If you want to submit your input, use \\n at the end of content.",
  "scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', direction='down or up or right or left') # Show more information on the `direction` side.",
  'wait() # Sleep for 5s and take a screenshot to check for any changes.',
];

/** `click` … `right_single` of the default (UI-TARS 1.0) action space, relative `[x1, y1, x2, y2]`. */
export const V1_0_POINTER_LINES: readonly string[] = [
  "click(start_box='[x1, y1, x2, y2]')",
  "left_double(start_box='[x1, y1, x2, y2]')",
  "right_single(start_box='[x1, y1, x2, y2]')",
];

/** The rest of the default (UI-TARS 1.0) lines, up to and including `wait()`. */
export const V1_0_OTHER_LINES: readonly string[] = [
  "drag(start_box='[x1, y1, x2, y2]', end_box='[x3, y3, x4, y4]')",
  "hotkey(key='')",
  'type(content=\'\') #If you want to submit your input, use "\\n" at the end of `content`.',
  "scroll(start_box='[x1, y1, x2, y2]', direction='down or up or right or left')",
  'wait() #Sleep for 5s and take a screenshot to check for any changes.',
];

/** Browser-only navigation lines (Doubao-1.5-20B browser prompt), placed after `right_single`. */
export const BROWSER_NAVIGATION_LINES: readonly string[] = [
  "navigate(content='xxx') # The content is your target web's url",
  'navigate_back() # Back to the last page',
];

/** `finished` with a final report, replacing the bare `finished()` so the model returns an answer. */
export const FINISHED_LINE =
  "finished(content='xxx') # Use escape characters \\', \\\", and \\n in content part to ensure we can parse the content in normal python string format.";

/** The `call_user()` line shared by the UI-TARS 1.0 and 1.5 prompts. */
export const CALL_USER_LINE =
  "call_user() # Submit the task and call the user when the task is unsolvable, or when you need the user's help.";

/** Which prompt family and which environment the action space is for. */
export interface ActionSpaceOptions {
  mode: '1.0' | '1.5';
  actionSpace: 'browser' | 'computer';
}

/** The action-space lines for a prompt, in prompt order. */
export function actionSpaceLines(options: ActionSpaceOptions): string[] {
  const pointer = options.mode === '1.5' ? V1_5_POINTER_LINES : V1_0_POINTER_LINES;
  const other = options.mode === '1.5' ? V1_5_OTHER_LINES : V1_0_OTHER_LINES;
  const navigation = options.actionSpace === 'browser' ? BROWSER_NAVIGATION_LINES : [];
  return [...pointer, ...navigation, ...other, FINISHED_LINE, CALL_USER_LINE];
}
