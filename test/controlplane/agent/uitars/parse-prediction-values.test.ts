import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePrediction } from '../../../../controlplane/src/agent/uitars/parse-prediction.js';
import { onlyAction, parseError, parseOk } from './parse-helpers.js';

describe('parsePrediction: values', () => {
  it('unescapes \\\' \\" \\\\ and \\n in quoted values (divergence: Python reference behaviour)', () => {
    const action = onlyAction(String.raw`Action: type(content='it\'s a \"test\"\\path\nnext')`);
    assert.equal(action.args.content, 'it\'s a "test"\\path\nnext');
    assert.equal(
      onlyAction(String.raw`Action: type(content="say \"hi\"")`).args.content,
      'say "hi"',
    );
  });

  it('keeps a trailing \\n of type content as a newline', () => {
    assert.equal(
      onlyAction(String.raw`Action: type(content='example.org\n')`).args.content,
      'example.org\n',
    );
  });

  it('leaves unknown backslash sequences verbatim', () => {
    assert.equal(onlyAction(String.raw`Action: type(content='C:\temp')`).args.content, 'C:\\temp');
  });

  it('protects commas inside single and double quotes (divergence for double quotes)', () => {
    assert.equal(onlyAction("Action: type(content='a, b, c')").args.content, 'a, b, c');
    assert.equal(onlyAction('Action: type(content="a, b")').args.content, 'a, b');
  });

  it("keeps apostrophes inside single-quoted text: type(content='it's, fine')", () => {
    assert.equal(onlyAction("Action: type(content='it's, fine')").args.content, "it's, fine");
    assert.equal(onlyAction("Action: type(content='Hello', world')").args.content, "Hello', world");
  });

  it('keeps real newlines and blank lines inside quoted content', () => {
    const data = parseOk("Action: type(content='line one\n\nline two')\n\nwait()");
    assert.equal(data.actions[0]?.args.content, 'line one\n\nline two');
    assert.equal(data.actions[1]?.name, 'wait');
  });

  it('keeps = and parentheses inside quoted values', () => {
    assert.equal(onlyAction("Action: type(content='a=b (c)')").args.content, 'a=b (c)');
  });

  it('applies aliases point=, start_point= and end_point= to keys only', () => {
    const drag = onlyAction(
      "Action: drag(start_point='<point>1 2</point>', end_point='<point>3 4</point>')",
    );
    assert.deepEqual(drag.start, { x: 1, y: 2 });
    assert.deepEqual(drag.end, { x: 3, y: 4 });
    assert.deepEqual(Object.keys(drag.args), ['start_box', 'end_box']);
    assert.equal(onlyAction("Action: type(content='point=5')").args.content, 'point=5');
  });
});

describe('parsePrediction: box and point forms (§1.3)', () => {
  const forms: Array<[string, string, { x: number; y: number }]> = [
    ['(x,y)', "click(start_box='(100,200)')", { x: 100, y: 200 }],
    ['(x1,y1,x2,y2)', "click(start_box='(100,200,300,400)')", { x: 200, y: 300 }],
    ['[x1, y1, x2, y2]', "click(start_box='[100, 200, 300, 400]')", { x: 200, y: 300 }],
    ['bare x1, y1, x2, y2', "click(start_box='100, 200, 300, 400')", { x: 200, y: 300 }],
    ['box tokens', "click(start_box='<|box_start|>(966,546)<|box_end|>')", { x: 966, y: 546 }],
    ['<bbox>', "click(start_box='<bbox>637 964 639 966</bbox>')", { x: 638, y: 965 }],
    ['<point>', "click(point='<point>510 150</point>')", { x: 510, y: 150 }],
    ['(x1,y1)(x2,y2)', "click(start_box='(10,20)(30,40)')", { x: 20, y: 30 }],
    ['unquoted (x,y)', 'click(start_box=(5,6))', { x: 5, y: 6 }],
    ['unquoted bare numbers', 'click(start_box=100, 200)', { x: 100, y: 200 }],
    ['decimals', "click(start_box='(10.5,20.25)')", { x: 10.5, y: 20.25 }],
    ['zero', "click(start_box='(0,0)')", { x: 0, y: 0 }],
  ];
  for (const [label, call, centre] of forms) {
    it(`reduces ${label} to its centre`, () => {
      assert.deepEqual(onlyAction(`Action: ${call}`).start, centre);
    });
  }

  it('leaves start undefined (but keeps the raw text) for an invalid box', () => {
    for (const value of ['(1,2,3)', 'abc', '(1,x)', '']) {
      const action = onlyAction(`Action: click(start_box='${value}')`);
      assert.equal(action.start, undefined, value);
      assert.equal(action.args.start_box, value);
    }
  });
});

describe('parsePrediction: illustrative parses (§1.7)', () => {
  it('Thought + click', () => {
    const data = parseOk("Thought: Open the menu.\nAction: click(start_box='(500,250)')");
    assert.equal(data.thought, 'Open the menu.');
    assert.deepEqual(data.actions, [
      { name: 'click', args: { start_box: '(500,250)' }, start: { x: 500, y: 250 } },
    ]);
  });

  it('hotkey then type over a blank line (content unescaped: 12 characters)', () => {
    const data = parseOk("Action: hotkey(key='ctrl l')\n\ntype(content='example.org\\n')");
    assert.deepEqual(data.actions, [
      { name: 'hotkey', args: { key: 'ctrl l' } },
      { name: 'type', args: { content: 'example.org\n' } },
    ]);
    assert.equal(data.actions[1]?.args.content?.length, 12);
  });

  it('scroll with a <point>', () => {
    assert.deepEqual(
      onlyAction("Action: scroll(point='<point>500 500</point>', direction='down')"),
      {
        name: 'scroll',
        args: { start_box: '<point>500 500</point>', direction: 'down' },
        start: { x: 500, y: 500 },
      },
    );
  });

  it('plain prose is a NO_ACTION failure instead of an empty action', () => {
    assert.deepEqual(parseError('I cannot do that.'), {
      code: 'NO_ACTION',
      message: "No action found. Expected a line like `Action: click(start_box='(x,y)')`.",
      raw: 'I cannot do that.',
    });
  });
});

describe('parsePrediction: malformed text', () => {
  it('reports NO_ACTION for empty text and thought-only text', () => {
    assert.equal(parseError('').code, 'NO_ACTION');
    assert.equal(parseError('   \n ').code, 'NO_ACTION');
    assert.equal(parseError('Thought: I am not sure what to do.').code, 'NO_ACTION');
  });

  it('reports MALFORMED_ACTION when the marker has no call', () => {
    const error = parseError('Thought: x\nAction: click the OK button');
    assert.equal(error.code, 'MALFORMED_ACTION');
    assert.match(error.message, /not followed by a function call/);
    assert.equal(parseError('Action:').code, 'MALFORMED_ACTION');
  });

  it('reports MALFORMED_ACTION for an unterminated quote', () => {
    const error = parseError("Action: click(start_box='(1,2)");
    assert.equal(error.code, 'MALFORMED_ACTION');
    assert.equal(
      error.message,
      "Malformed action `click(start_box='(1,2)`: unterminated quoted value of start_box.",
    );
    assert.equal(error.raw, "Action: click(start_box='(1,2)");
  });

  it('reports MALFORMED_ACTION for a missing ) followed by more text on the same line', () => {
    const error = parseError("Action: click(start_box='(1,2)' and then more");
    assert.equal(error.code, 'MALFORMED_ACTION');
    assert.match(error.message, /unterminated quoted value of start_box/);
    assert.match(
      parseError('Action: click(start_box=100, 200 300)').message,
      /unexpected text "300\)"/,
    );
  });

  it('reports MALFORMED_ACTION for positional or garbage arguments', () => {
    assert.match(parseError("Action: click('(1,2)')").message, /expected key=value/);
    assert.equal(parseError('Action: type(%%%)').code, 'MALFORMED_ACTION');
  });

  it('fails the whole turn when one of several actions is malformed', () => {
    assert.equal(parseError("Action: wait()\n\ntype(content='oops)").code, 'MALFORMED_ACTION');
  });

  it('never throws on arbitrary input', () => {
    const inputs = [
      '((((',
      "Action: ')'",
      'Action: a(b=',
      '\u0000\u0001',
      'Action: x(y=[(]',
      'a'.repeat(10_000),
    ];
    for (const input of inputs) {
      const result = parsePrediction(input);
      assert.equal(typeof result.success, 'boolean');
    }
  });
});
