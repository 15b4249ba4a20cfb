import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  actionSpaceLines,
  BROWSER_NAVIGATION_LINES,
  FINISHED_LINE,
} from '../../../../controlplane/src/agent/uitars/action-space.js';
import { parsePrediction } from '../../../../controlplane/src/agent/uitars/parse-prediction.js';
import { buildSystemPrompt } from '../../../../controlplane/src/agent/uitars/prompt.js';

const HEADER =
  'You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task.';

/** getSystemPromptV1_5('en', 'normal') as rendered by the desktop app, with `finished(content=…)`. */
const EXPECTED_V1_5_COMPUTER = `${HEADER}

## Output Format
\`\`\`
Thought: ...
Action: ...
\`\`\`

## Action Space

click(start_box='<|box_start|>(x1,y1)<|box_end|>')
left_double(start_box='<|box_start|>(x1,y1)<|box_end|>')
right_single(start_box='<|box_start|>(x1,y1)<|box_end|>')
drag(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')
hotkey(key='ctrl c') # Split keys with a space and use lowercase. Also, do not use more than 3 keys in one hotkey action.
type(content='xxx') # Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format. If you want to submit your input, use \\n at the end of content.
scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', direction='down or up or right or left') # Show more information on the \`direction\` side.
wait() # Sleep for 5s and take a screenshot to check for any changes.
finished(content='xxx') # Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format.
call_user() # Submit the task and call the user when the task is unsolvable, or when you need the user's help.


## Note
- Use English in \`Thought\` part.
- Generate a well-defined and practical strategy in the \`Thought\` section, summarizing your next move and its objective.

## User Instruction
`;

/** getSystemPrompt('en') (NutJSElectronOperator action space), with `finished(content=…)`. */
const EXPECTED_V1_0_COMPUTER = `${HEADER}

## Output Format
\`\`\`
Thought: ...
Action: ...
\`\`\`

## Action Space
click(start_box='[x1, y1, x2, y2]')
left_double(start_box='[x1, y1, x2, y2]')
right_single(start_box='[x1, y1, x2, y2]')
drag(start_box='[x1, y1, x2, y2]', end_box='[x3, y3, x4, y4]')
hotkey(key='')
type(content='') #If you want to submit your input, use "\\n" at the end of \`content\`.
scroll(start_box='[x1, y1, x2, y2]', direction='down or up or right or left')
wait() #Sleep for 5s and take a screenshot to check for any changes.
finished(content='xxx') # Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format.
call_user() # Submit the task and call the user when the task is unsolvable, or when you need the user's help.

## Note
- Use English in \`Thought\` part.
- Write a small plan and finally summarize your next action (with its target element) in one sentence in \`Thought\` part.

## User Instruction
`;

describe('buildSystemPrompt', () => {
  it('reproduces the UI-TARS-1.5 prompt byte for byte (computer)', () => {
    assert.equal(
      buildSystemPrompt({ mode: '1.5', actionSpace: 'computer' }),
      EXPECTED_V1_5_COMPUTER,
    );
    assert.equal(
      buildSystemPrompt({ mode: '1.5', actionSpace: 'computer', language: 'English' }),
      EXPECTED_V1_5_COMPUTER,
    );
  });

  it('reproduces the UI-TARS 1.0 prompt byte for byte (computer)', () => {
    assert.equal(
      buildSystemPrompt({ mode: '1.0', actionSpace: 'computer' }),
      EXPECTED_V1_0_COMPUTER,
    );
  });

  it('adds navigate and navigate_back after right_single in the browser variant', () => {
    for (const mode of ['1.0', '1.5'] as const) {
      const prompt = buildSystemPrompt({ mode, actionSpace: 'browser' });
      assert.ok(
        prompt.includes("navigate(content='xxx') # The content is your target web's url\n"),
        mode,
      );
      assert.ok(prompt.includes('\nnavigate_back() # Back to the last page\n'), mode);
      const rightSingle =
        mode === '1.5'
          ? "right_single(start_box='<|box_start|>(x1,y1)<|box_end|>')"
          : "right_single(start_box='[x1, y1, x2, y2]')";
      assert.ok(
        prompt.includes(`${rightSingle}\n${BROWSER_NAVIGATION_LINES.join('\n')}\ndrag(`),
        mode,
      );
      const computer = buildSystemPrompt({ mode, actionSpace: 'computer' });
      assert.equal(
        prompt,
        computer.replace(
          `${rightSingle}\n`,
          `${rightSingle}\n${BROWSER_NAVIGATION_LINES.join('\n')}\n`,
        ),
      );
      assert.ok(!computer.includes('navigate'));
    }
  });

  it('advertises finished(content=…) with the escape note and call_user()', () => {
    const prompt = buildSystemPrompt({ mode: '1.5', actionSpace: 'browser' });
    assert.ok(prompt.includes(`\n${FINISHED_LINE}\n`));
    assert.ok(
      FINISHED_LINE.startsWith(
        "finished(content='xxx') # Use escape characters \\', \\\", and \\n in content part",
      ),
    );
    assert.ok(
      prompt.includes(
        "\ncall_user() # Submit the task and call the user when the task is unsolvable, or when you need the user's help.\n",
      ),
    );
    assert.ok(!prompt.includes('finished()'));
  });

  it('ends with "## User Instruction\\n" and honours the language', () => {
    for (const mode of ['1.0', '1.5'] as const) {
      for (const actionSpace of ['browser', 'computer'] as const) {
        assert.ok(buildSystemPrompt({ mode, actionSpace }).endsWith('\n\n## User Instruction\n'));
      }
    }
    assert.ok(
      buildSystemPrompt({ mode: '1.5', actionSpace: 'browser', language: 'Chinese' }).includes(
        '\n- Use Chinese in `Thought` part.\n',
      ),
    );
  });

  it('exports the action-space lines as data, in prompt order', () => {
    const lines = actionSpaceLines({ mode: '1.5', actionSpace: 'browser' });
    assert.deepEqual(
      lines.map((line) => line.slice(0, line.indexOf('('))),
      [
        'click',
        'left_double',
        'right_single',
        'navigate',
        'navigate_back',
        'drag',
        'hotkey',
        'type',
        'scroll',
        'wait',
        'finished',
        'call_user',
      ],
    );
    assert.equal(actionSpaceLines({ mode: '1.0', actionSpace: 'computer' }).length, 10);
  });

  it('advertises only actions the parser reads back with the advertised argument names', () => {
    for (const mode of ['1.0', '1.5'] as const) {
      for (const line of actionSpaceLines({ mode, actionSpace: 'browser' })) {
        const call = line
          .replace(/\s#.*$/, '')
          .replace(/x1|x3/g, '10')
          .replace(/y1|y3/g, '20')
          .replace(/x2|x4/g, '30')
          .replace(/y2|y4/g, '40');
        const parsed = parsePrediction(`Action: ${call}`);
        assert.ok(parsed.success, call);
        const [action] = parsed.data.actions;
        assert.ok(action, call);
        if (action.args.start_box !== undefined) assert.ok(action.start, call);
      }
    }
  });
});
