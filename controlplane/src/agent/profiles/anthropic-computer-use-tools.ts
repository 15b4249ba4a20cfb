// The tools and system prompt of the anthropic-computer-use profile. The computer tool is
// Anthropic's own (its schema lives on the server; the request only names its version and the
// display: @anthropic-ai/sdk `BetaToolComputerUse20251124` — name 'computer', display_width_px,
// display_height_px, optional display_number and enable_zoom). In a browser the screenshot is the
// page alone, without an address bar, so Clawdie adds `navigate` and `go_back` as ordinary
// client tools; `call_user` hands the task to a person (a login, a CAPTCHA, a decision).
import type { ProfileImage, RequestInput } from './profile-types.js';

/** The computer tool versions this profile can declare (the first is the default). */
export type ComputerToolType = 'computer_20251124' | 'computer_20250124';

const CALL_USER = {
  name: 'call_user',
  description:
    'Hand the task to the user when only a person can go on (a login, a CAPTCHA, a payment, a decision the task leaves open). Say why.',
  input_schema: {
    type: 'object',
    properties: { reason: { type: 'string', description: 'What the user should do, and why.' } },
    required: ['reason'],
  },
};

const NAVIGATE = {
  name: 'navigate',
  description: 'Open a URL in the current browser tab (the screenshot has no address bar).',
  input_schema: {
    type: 'object',
    properties: {
      url: { type: 'string', description: 'An absolute URL, e.g. https://example.com/' },
    },
    required: ['url'],
  },
};

const GO_BACK = {
  name: 'go_back',
  description: "Go back one page in the tab's history.",
  input_schema: { type: 'object', properties: {} },
};

/** The `tools` array: the computer tool at the screenshot's size, then Clawdie's own tools. */
export function toolDeclarations(
  tool: ComputerToolType,
  image: ProfileImage,
  space: RequestInput['actionSpace'],
): Record<string, unknown>[] {
  // zoom stays off (enable_zoom defaults to false): the screenshot is sent at the display's size.
  const computer = {
    type: tool,
    name: 'computer',
    display_width_px: image.width,
    display_height_px: image.height,
  };
  return space === 'browser' ? [computer, NAVIGATE, GO_BACK, CALL_USER] : [computer, CALL_USER];
}

const SHARED = [
  'Coordinates are pixels of the latest screenshot; give every pointer action its coordinate.',
  'scroll_amount counts mouse-wheel clicks of about 100 pixels each.',
  'Not available here: triple_click, middle_click, hold_key, left_mouse_down, left_mouse_up, zoom, cursor_position.',
  'After your actions run you get a new screenshot in the last tool result; check it before going on.',
  'When the task is done, answer with the result as plain text and call no tool.',
  'If only a person can go on (a login, a CAPTCHA, a payment, an open decision), call call_user.',
];

/** The system prompt (static per action space, so it is part of the cached prefix). */
export function systemPrompt(space: RequestInput['actionSpace']): string {
  const lead =
    space === 'browser'
      ? [
          'You operate a web browser for the user with the computer tool.',
          'Each screenshot shows the web page alone, without tabs or an address bar: open a URL with navigate, go back with go_back.',
        ]
      : ['You operate a computer desktop for the user with the computer tool.'];
  return [...lead, ...SHARED].join('\n');
}
