/**
 * System prompts for UI-TARS models, reproducing the desktop app's `getSystemPromptV1_5(lang,
 * 'normal')` (mode `'1.5'`) and `getSystemPrompt(lang)` (mode `'1.0'`) byte for byte, except for the
 * action-space changes documented in action-space.ts (navigation lines for the browser,
 * `finished(content='xxx')`). The prompt ends with `## User Instruction\n`; the instruction follows.
 */
import { actionSpaceLines } from './action-space.js';

/** Options of {@link buildSystemPrompt}. */
export interface SystemPromptOptions {
  mode: '1.0' | '1.5';
  actionSpace: 'browser' | 'computer';
  /** Language of the `Thought` part; default `'English'`. */
  language?: 'English' | 'Chinese';
}

const HEADER =
  'You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task.';
const OUTPUT_FORMAT = '## Output Format\n```\nThought: ...\nAction: ...\n```';
const NOTE_V1_5 =
  '- Generate a well-defined and practical strategy in the `Thought` section, summarizing your next move and its objective.';
const NOTE_V1_0 =
  '- Write a small plan and finally summarize your next action (with its target element) in one sentence in `Thought` part.';

/** Builds the system prompt (merged by the loop into the first user message, uitars-protocol.md §4.2). */
export function buildSystemPrompt(options: SystemPromptOptions): string {
  const lines = actionSpaceLines(options).join('\n');
  const language = `- Use ${options.language ?? 'English'} in \`Thought\` part.`;
  // 1.5: an empty line after the heading and two after the last action; 1.0: neither.
  const actionSpace =
    options.mode === '1.5' ? `## Action Space\n\n${lines}\n` : `## Action Space\n${lines}`;
  const note = options.mode === '1.5' ? NOTE_V1_5 : NOTE_V1_0;
  return `${HEADER}\n\n${OUTPUT_FORMAT}\n\n${actionSpace}\n\n## Note\n${language}\n${note}\n\n## User Instruction\n`;
}
