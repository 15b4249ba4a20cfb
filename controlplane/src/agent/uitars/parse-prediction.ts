/**
 * Parses one UI-TARS model turn (uitars-protocol.md §1) into a thought and typed actions.
 *
 * Matches `@ui-tars/action-parser` 1.2.3 (mode `bc`) where it is the interface: the thought forms,
 * only the text after the LAST `Action:` / `Action：` marker is the action block, blank-line
 * separated actions, the aliases `point=` / `start_point=` → `start_box=` and `end_point=` →
 * `end_box=`, every box form of §1.3, lower-cased names passed through unvalidated.
 *
 * Deliberate divergences (each has a test in parse-prediction.test.ts):
 * - Quoted values are unescaped like the Python reference (`codes/ui_tars/action_parser.py`):
 *   `\'`, `\"`, `\\` and `\n` (backslash + n) become `'`, `"`, `\` and a newline.
 * - Commas inside double quotes are protected too (`type(content="a, b")` keeps `a, b`); a quote
 *   closes a value only before `, key=`, `)`, a line break or the end, so apostrophes survive.
 * - As upstream revision 16ed233: markers inside quotes are ignored, text after a call's `)` is
 *   ignored, and `(x1,y1)(x2,y2)` is one box.
 * - A missing final `)` is tolerated when the arguments are complete (Doubao, PR #942).
 * - Coordinate 0 is valid; empty values are kept (`finished(content='')`).
 * - `<think>…</think>` is removed first (also a leading `…</think>` whose opening tag the server
 *   stripped); `Thought:` needs no space after the colon; a multi-line `Action_Summary:` is kept.
 * - Calls may also be separated by a single newline; prose lines in the block are skipped.
 * - Unparseable text is a typed failure instead of a silent empty action: `NO_ACTION` when the
 *   text has no marker and no call, `MALFORMED_ACTION` when a marker has no call or a call is broken.
 */
import { findActionMarkers } from './action-markers.js';
import { parseBoxValue } from './box-value.js';
import { type RawCall, readCalls } from './call-parser.js';
import type { ModelAction, PredictionParseErrorCode, PredictionParseResult } from './types.js';

const ARGUMENT_ALIASES: Readonly<Record<string, string>> = {
  point: 'start_box',
  start_point: 'start_box',
  end_point: 'end_box',
};
const CALL_LINE = /^[ \t]*[A-Za-z_]\w*\(/m;
const EXPECTED = "Expected a line like `Action: click(start_box='(x,y)')`.";

interface ThoughtParts {
  thought: string;
  reflection: string | null;
  actionSummary?: string;
}

/** Parses a model turn. Never throws: unparseable text yields `{ success: false, error }`. */
export function parsePrediction(text: string): PredictionParseResult {
  const cleaned = stripThink(text).trim();
  const markers = findActionMarkers(cleaned);
  const first = markers[0];
  const last = markers.at(-1);
  let head: string;
  let block: string;
  if (first !== undefined && last !== undefined) {
    head = cleaned.slice(0, first.index);
    block = cleaned.slice(last.index + last.marker.length);
  } else {
    // No marker: the thought runs until the first line that starts a call.
    const thoughtAt = cleaned.indexOf('Thought:');
    const from = thoughtAt === -1 ? 0 : thoughtAt;
    const callLine = CALL_LINE.exec(cleaned.slice(from));
    const split = callLine === null ? cleaned.length : from + callLine.index;
    head = cleaned.slice(0, split);
    block = cleaned.slice(split);
  }

  const read = readCalls(block);
  if (!read.success) {
    return failure(
      'MALFORMED_ACTION',
      `Malformed action \`${read.source}\`: ${read.reason}.`,
      text,
    );
  }
  if (read.calls.length === 0) {
    return last === undefined
      ? failure('NO_ACTION', `No action found. ${EXPECTED}`, text)
      : failure(
          'MALFORMED_ACTION',
          `\`${last.marker}\` is not followed by a function call. ${EXPECTED}`,
          text,
        );
  }
  const actions = read.calls.map(toModelAction);
  return { success: true, data: { ...parseThought(head), actions, raw: text } };
}

function parseThought(head: string): ThoughtParts {
  const summaryAt = head.indexOf('Action_Summary:');
  const summary = summaryAt === -1 ? undefined : head.slice(summaryAt + 15).trim();
  const withSummary = summary === undefined ? {} : { actionSummary: summary };
  const thoughtAt = head.indexOf('Thought:');
  if (thoughtAt !== -1) {
    return { thought: head.slice(thoughtAt + 8).trim(), reflection: null, ...withSummary };
  }
  if (head.startsWith('Reflection:')) {
    const end = summaryAt === -1 ? head.length : summaryAt;
    return { thought: summary ?? '', reflection: head.slice(11, end).trim(), ...withSummary };
  }
  if (summaryAt === 0) return { thought: summary ?? '', reflection: null, ...withSummary };
  return { thought: '', reflection: null, ...withSummary };
}

function toModelAction(call: RawCall): ModelAction {
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries(call.args)) {
    const lower = key.toLowerCase();
    args[ARGUMENT_ALIASES[lower] ?? lower] = value;
  }
  const action: ModelAction = { name: call.name.toLowerCase(), args };
  const start = args.start_box === undefined ? null : parseBoxValue(args.start_box);
  const end = args.end_box === undefined ? null : parseBoxValue(args.end_box);
  if (start !== null) action.start = start;
  if (end !== null) action.end = end;
  return action;
}

/** Removes `<think>…</think>` blocks, and everything up to a `</think>` left without its opening tag. */
function stripThink(text: string): string {
  const withoutBlocks = text.replace(/<think>[\s\S]*?<\/think>/g, '');
  const orphanClose = withoutBlocks.indexOf('</think>');
  return orphanClose === -1 ? withoutBlocks : withoutBlocks.slice(orphanClose + 8);
}

function failure(
  code: PredictionParseErrorCode,
  message: string,
  raw: string,
): PredictionParseResult {
  return { success: false, error: { code, message, raw } };
}
