import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { onlyAction, parseOk } from './parse-helpers.js';

describe('parsePrediction: thought forms', () => {
  it('reads Thought: up to the Action: marker', () => {
    const data = parseOk(
      "Thought: The search field is at the top.\nI will click it.\nAction: click(start_box='(512,88)')",
    );
    assert.equal(data.thought, 'The search field is at the top.\nI will click it.');
    assert.equal(data.reflection, null);
    assert.equal(data.actionSummary, undefined);
    assert.equal(
      data.raw,
      "Thought: The search field is at the top.\nI will click it.\nAction: click(start_box='(512,88)')",
    );
  });

  it('reads Reflection: … Action_Summary: … as reflection and thought', () => {
    const data = parseOk(
      "Reflection: The last click missed the button.\nAction_Summary: Click the Save button again.\nAction: click(start_box='(10,20)')",
    );
    assert.equal(data.reflection, 'The last click missed the button.');
    assert.equal(data.thought, 'Click the Save button again.');
    assert.equal(data.actionSummary, 'Click the Save button again.');
    assert.deepEqual(data.actions[0]?.start, { x: 10, y: 20 });
  });

  it('reads a leading Action_Summary: as the thought, also over several lines', () => {
    const single = parseOk("Action_Summary: Open the menu.\nAction: click(start_box='(1,2)')");
    assert.equal(single.thought, 'Open the menu.');
    assert.equal(single.actionSummary, 'Open the menu.');
    assert.equal(single.reflection, null);
    const multi = parseOk('Action_Summary: Open the menu\nthen pick File.\nAction: wait()');
    assert.equal(multi.thought, 'Open the menu\nthen pick File.');
  });

  it('does not treat Reflection: in the middle of the text as the reflection form', () => {
    const data = parseOk('Some words. Reflection: x Action_Summary: y\nAction: wait()');
    assert.equal(data.reflection, null);
    assert.equal(data.actionSummary, 'y');
    assert.equal(data.thought, '');
  });

  it('lets Thought: win over Reflection:, like the reference', () => {
    const data = parseOk('Reflection: r\nThought: t\nAction: wait()');
    assert.equal(data.thought, 't');
    assert.equal(data.reflection, null);
  });

  it('ignores a <think> block, including markers inside it', () => {
    const data = parseOk(
      '<think>Maybe Action: finished() is right?</think>\nThought: Not yet.\nAction: wait()',
    );
    assert.equal(data.thought, 'Not yet.');
    assert.deepEqual(data.actions, [{ name: 'wait', args: {} }]);
  });

  it('drops everything before an orphan </think> (server stripped the opening tag)', () => {
    const data = parseOk(
      "reasoning with Action: hover(start_box='(1,1)')</think>Thought: go\nAction: wait()",
    );
    assert.equal(data.thought, 'go');
    assert.deepEqual(
      data.actions.map((action) => action.name),
      ['wait'],
    );
  });

  it('accepts Thought: without a space after the colon (divergence: the reference gives "")', () => {
    assert.equal(parseOk('Thought:compact\nAction: wait()').thought, 'compact');
  });

  it('gives an empty thought when there is none', () => {
    const data = parseOk("Action: click(start_box='(1,2)')");
    assert.equal(data.thought, '');
    assert.equal(data.reflection, null);
  });

  it('accepts the full-width marker Action：', () => {
    const data = parseOk("Thought: 点击按钮\nAction：click(start_box='(3,4)')");
    assert.equal(data.thought, '点击按钮');
    assert.deepEqual(data.actions[0]?.start, { x: 3, y: 4 });
  });

  it('reads a call without any marker, the thought ending at the call line', () => {
    const data = parseOk("Thought: Just click.\nclick(start_box='(7,8)')");
    assert.equal(data.thought, 'Just click.');
    assert.deepEqual(data.actions, [
      { name: 'click', args: { start_box: '(7,8)' }, start: { x: 7, y: 8 } },
    ]);
  });
});

describe('parsePrediction: action block', () => {
  it('uses only the text after the LAST marker', () => {
    const data = parseOk(
      "Thought: first\nAction: click(start_box='(1,1)')\n\nAction: type(content='b')",
    );
    assert.deepEqual(data.actions, [{ name: 'type', args: { content: 'b' } }]);
    assert.equal(data.thought, 'first');
  });

  it('ignores Action: markers inside quotes (upstream 16ed233)', () => {
    const data = parseOk(
      "Thought: I'll press the \"Action: Save\" button.\nAction: type(content='Action: done')",
    );
    assert.equal(data.thought, 'I\'ll press the "Action: Save" button.');
    assert.deepEqual(data.actions, [{ name: 'type', args: { content: 'Action: done' } }]);
  });

  it('reads several actions separated by blank lines, in order', () => {
    const data = parseOk(
      "Action: hotkey(key='ctrl a')\n\ntype(content='hello')\n\n\nhotkey(key='enter')",
    );
    assert.deepEqual(
      data.actions.map((action) => [action.name, action.args]),
      [
        ['hotkey', { key: 'ctrl a' }],
        ['type', { content: 'hello' }],
        ['hotkey', { key: 'enter' }],
      ],
    );
  });

  it('reads actions separated by a single newline too', () => {
    const data = parseOk(
      "Action: press(key='ctrl')\nclick(start_box='(5,5)')\nrelease(key='ctrl')",
    );
    assert.deepEqual(
      data.actions.map((action) => action.name),
      ['press', 'click', 'release'],
    );
  });

  it('tolerates trailing text after the closing parenthesis', () => {
    const action = onlyAction("Action: click(start_box='(100,200)') # the blue button");
    assert.deepEqual(action, {
      name: 'click',
      args: { start_box: '(100,200)' },
      start: { x: 100, y: 200 },
    });
  });

  it('skips prose lines between actions', () => {
    const data = parseOk("Action: click(start_box='(1,2)')\n\nThis opens the menu.\n\nwait()");
    assert.deepEqual(
      data.actions.map((action) => action.name),
      ['click', 'wait'],
    );
  });

  it('tolerates a missing final ) when the arguments are complete (Doubao, PR #942)', () => {
    const action = onlyAction("Action: click(point='<point>450 565</point>'");
    assert.deepEqual(action, {
      name: 'click',
      args: { start_box: '<point>450 565</point>' },
      start: { x: 450, y: 565 },
    });
    const data = parseOk("Action: click(point='<point>1 2</point>'\n\ntype(content='x')");
    assert.deepEqual(
      data.actions.map((entry) => entry.name),
      ['click', 'type'],
    );
  });

  it('lower-cases names and keys and passes unknown names through', () => {
    const action = onlyAction("Action: CLICK(Start_Box='(1,2)')");
    assert.equal(action.name, 'click');
    assert.deepEqual(action.start, { x: 1, y: 2 });
    assert.deepEqual(onlyAction("Action: swipe(direction='up')"), {
      name: 'swipe',
      args: { direction: 'up' },
    });
  });

  it('keeps every keyword argument as a string; the last duplicate wins', () => {
    const action = onlyAction(
      "Action: scroll(start_box='(1,2)', direction='down', amount=300, direction='up')",
    );
    assert.deepEqual(action.args, { start_box: '(1,2)', direction: 'up', amount: '300' });
  });

  it('reads no-argument calls and keeps empty values', () => {
    assert.deepEqual(onlyAction('Action: wait()'), { name: 'wait', args: {} });
    assert.deepEqual(onlyAction("Action: finished(content='')"), {
      name: 'finished',
      args: { content: '' },
    });
    assert.deepEqual(onlyAction('Action: navigate_back()'), { name: 'navigate_back', args: {} });
  });
});
