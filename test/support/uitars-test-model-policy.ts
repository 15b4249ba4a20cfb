import type { Box, PageElement } from '@clawdie/kit/jail-api';
import { roundHalfEven } from '../../controlplane/src/agent/uitars/smart-resize.js';
import type { DemoTaskInput } from './uitars-test-model-messages.js';
import type { ImageSize, JailObservation, PageTextReader } from './uitars-test-model-observe.js';

/** How CSS pixels of the page map onto the model's pixel space. */
export interface ModelGeometry {
  /** The model's pixel space: the smart-resized image size. */
  modelSize: ImageSize;
  /** Pixels of the jail's screenshot (CSS viewport × device pixel ratio). */
  screenshotSize: ImageSize;
  devicePixelRatio: number;
}

/** A point in model pixels. */
export interface ModelPoint {
  x: number;
  y: number;
}

/**
 * Box centre (CSS px) × device pixel ratio = screenshot px; × (model size / screenshot size),
 * rounded half to even = model px (what UI-TARS-1.5 writes).
 */
export function toModelPoint(box: Box, geometry: ModelGeometry): ModelPoint {
  const { modelSize, screenshotSize, devicePixelRatio } = geometry;
  const screenX = (box.x + box.width / 2) * devicePixelRatio;
  const screenY = (box.y + box.height / 2) * devicePixelRatio;
  return {
    x: roundHalfEven((screenX * modelSize.width) / screenshotSize.width),
    y: roundHalfEven((screenY * modelSize.height) / screenshotSize.height),
  };
}

/** `<|box_start|>(x,y)<|box_end|>`, the UI-TARS-1.5 point form. */
export function formatPoint(point: ModelPoint): string {
  return `<|box_start|>(${point.x},${point.y})<|box_end|>`;
}

/** Escapes text for a single-quoted UI-TARS argument (`\\`, `\'`, `\n`), as the prompt asks. */
export function escapeContent(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n');
}

const click = (point: ModelPoint): string => `click(start_box='${formatPoint(point)}')`;
const type = (text: string): string => `type(content='${escapeContent(text)}')`;

/** A UI-TARS turn: `Thought: …`, then `Action:` with the actions separated by blank lines. */
export function formatReply(thought: string, ...actions: string[]): string {
  return `Thought: ${thought}\nAction: ${actions.join('\n\n')}`;
}

/** Everything the scripted policy decides from. */
export interface DemoPolicyInput {
  observation: JailObservation;
  geometry: ModelGeometry;
  task: DemoTaskInput;
  /** The model's previous reply (from the conversation), to tell login steps apart. */
  previousReply: string | null;
  readPageText: PageTextReader;
  /** Typed into the address bar when the browser shows `about:blank`. */
  startUrl?: string;
}

type PageKind = 'blank' | 'login' | 'search' | 'results' | 'item' | 'unknown';

function pageKind({ state, elements }: JailObservation): PageKind {
  if (state.url === '' || state.url === 'about:blank') return 'blank';
  let path = '';
  try {
    path = new URL(state.url).pathname;
  } catch {
    return 'unknown';
  }
  if (path === '/' || path === '/login') return 'login';
  if (path === '/search') return 'search';
  if (path === '/results') return 'results';
  if (path.startsWith('/item/')) return 'item';
  return elements.elements.some((element) => element.input_type === 'password')
    ? 'login'
    : 'unknown';
}

const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

function findElement(
  elements: readonly PageElement[],
  ...predicates: Array<(element: PageElement) => boolean>
): PageElement | undefined {
  for (const predicate of predicates) {
    const found = elements.find(predicate);
    if (found) return found;
  }
  return undefined;
}

const waitReply = (why: string): string => formatReply(why, 'wait()');
const referencePattern = /Order reference:?\s*([A-Z0-9][A-Z0-9-]{2,})/;

/**
 * The scripted UI-TARS-1.5 policy for the demo shop: sign in (username, then password, then
 * "Sign in"), search with Enter, open the product link, read the order reference from the real
 * page and finish with it. Unexpected pages get `wait()`; an unreadable reference `call_user()`.
 */
export async function decideDemoStep(input: DemoPolicyInput): Promise<string> {
  const { observation, geometry, task, previousReply } = input;
  const elements = observation.elements.elements;
  const at = (element: PageElement): ModelPoint => toModelPoint(element.box, geometry);
  switch (pageKind(observation)) {
    case 'blank':
      return input.startUrl === undefined
        ? waitReply('The browser shows an empty page. I will wait for the shop to load.')
        : formatReply(
            'The browser is empty. I will open the demo shop from the address bar.',
            "hotkey(key='ctrl l')",
            type(`${input.startUrl}\n`),
          );
    case 'login':
      return loginStep(elements, task, previousReply, at);
    case 'search': {
      const box = findElement(
        elements,
        (element) => element.id === 'q' || element.name === 'q',
        (element) => element.input_type === 'search',
      );
      if (!box) return waitReply('The search page has no search box yet. I will wait.');
      return formatReply(
        `I am signed in. I will click the search box, type "${task.searchTerm}" and press Enter.`,
        click(at(box)),
        type(`${task.searchTerm}\n`),
      );
    }
    case 'results': {
      const wanted = normalise(task.productName);
      const link = findElement(
        elements,
        (element) => element.tag === 'a' && normalise(element.text) === wanted,
        (element) => element.tag === 'a' && normalise(element.text).includes(wanted),
      );
      if (link) {
        return formatReply(
          `The results include "${task.productName}". I will open it.`,
          click(at(link)),
        );
      }
      const centre = {
        x: roundHalfEven(geometry.modelSize.width / 2),
        y: roundHalfEven(geometry.modelSize.height / 2),
      };
      return formatReply(
        `"${task.productName}" is not visible yet. I will scroll down the results.`,
        `scroll(start_box='${formatPoint(centre)}', direction='down')`,
      );
    }
    case 'item':
      return itemStep(input);
    default:
      return waitReply('This page is not part of the task. I will wait and look again.');
  }
}

function loginStep(
  elements: readonly PageElement[],
  task: DemoTaskInput,
  previousReply: string | null,
  at: (element: PageElement) => ModelPoint,
): string {
  const previous = previousReply ?? '';
  if (previous.includes(type(task.password))) {
    const button = findElement(
      elements,
      (element) => /sign in|log in/i.test(element.text) && element.tag !== 'a',
      (element) => element.input_type === 'submit',
    );
    if (!button) return waitReply('I cannot see the Sign in button yet. I will wait.');
    return formatReply('Both fields are filled in. I will click "Sign in".', click(at(button)));
  }
  if (previous.includes(type(task.username))) {
    const field = findElement(elements, (element) => element.input_type === 'password');
    if (!field) return waitReply('I cannot see the password field yet. I will wait.');
    return formatReply(
      `The username is entered. I will click the Password field and type the password.`,
      click(at(field)),
      type(task.password),
    );
  }
  const field = findElement(
    elements,
    (element) => element.id === 'username' || element.name === 'username',
    (element) => element.tag === 'input' && ['text', 'email'].includes(element.input_type ?? ''),
  );
  if (!field) return waitReply('I cannot see the sign-in form yet. I will wait.');
  return formatReply(
    `I need to sign in first. I will click the Username field and type "${task.username}".`,
    click(at(field)),
    type(task.username),
  );
}

async function itemStep(input: DemoPolicyInput): Promise<string> {
  const { observation, task } = input;
  if (!normalise(observation.state.title).includes(normalise(task.productName))) {
    return formatReply(
      `This is not the page of "${task.productName}". I will go back to the results.`,
      "hotkey(key='alt left')",
    );
  }
  const elementText = observation.elements.elements.map((element) => element.text).join(' ');
  const match =
    referencePattern.exec(elementText) ??
    referencePattern.exec(await input.readPageText(observation.state.url));
  if (!match?.[1]) {
    return formatReply(
      'I cannot find an order reference on this page. I need help.',
      'call_user()',
    );
  }
  return formatReply(
    `The page of "${task.productName}" shows the order reference ${match[1]}. The task is done.`,
    `finished(content='${escapeContent(match[1])}')`,
  );
}
