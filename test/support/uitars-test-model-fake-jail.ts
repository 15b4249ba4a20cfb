import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ElementsResponse, PageElement, PageState } from '@clawdie/kit/jail-api';

/** The Bearer token {@link startFakeJail} accepts by default. */
export const fakeJailToken = 'jail-token';

/** What the fake jail answers: `GET /state` and `GET /elements` bodies. */
export interface FakeJailPage {
  state: PageState;
  elements: ElementsResponse;
}

/** A fake jail-service; assign `page` to change what it shows. */
export interface FakeJail {
  url: string;
  page: FakeJailPage;
  /** Requests rejected for a missing or wrong Bearer token. */
  unauthorised: number;
}

/**
 * A loopback node:http server answering `/state` and `/elements` like the jail-service contract
 * (Bearer token required, 401 otherwise); closed through `cleanup.after`.
 */
export async function startFakeJail(
  cleanup: { after(fn: () => unknown): void },
  token = fakeJailToken,
): Promise<FakeJail> {
  const jail: FakeJail = { url: '', page: jailPage('about:blank', '', []), unauthorised: 0 };
  const server = createServer((request, response) => {
    if (request.headers.authorization !== `Bearer ${token}`) {
      jail.unauthorised += 1;
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end('{"error":{"code":"UNAUTHORIZED","message":"bad token"}}');
      return;
    }
    const bodies: Record<string, unknown> = {
      '/state': jail.page.state,
      '/elements': jail.page.elements,
    };
    const body = bodies[request.url ?? ''];
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? { error: { code: 'NOT_FOUND', message: 'no route' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jail.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanup.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return jail;
}

let nextIndex = 0;

/** A `/elements` entry; `box` is `[x, y, width, height]` in CSS px. */
export function element(
  tag: string,
  text: string,
  box: [number, number, number, number],
  extra: Partial<PageElement> = {},
): PageElement {
  const [x, y, width, height] = box;
  return {
    index: nextIndex++,
    tag,
    role: null,
    text,
    name: null,
    id: null,
    input_type: null,
    href: null,
    enabled: true,
    box: { x, y, width, height },
    ...extra,
  };
}

/** A page at a 1280×800 CSS viewport. */
export function jailPage(
  url: string,
  title: string,
  elements: PageElement[],
  devicePixelRatio = 1,
): FakeJailPage {
  return {
    state: { url, title, loading: false },
    elements: {
      elements,
      viewport: { width: 1280, height: 800 },
      device_pixel_ratio: devicePixelRatio,
    },
  };
}

/** Elements of the demo shop at 1280×800, boxes as measured in Chromium. */
export const demoElements = {
  username: element('input', '', [457, 242, 366, 44], {
    id: 'username',
    name: 'username',
    input_type: 'text',
  }),
  password: element('input', '', [457, 331, 366, 43], {
    id: 'password',
    name: 'password',
    input_type: 'password',
  }),
  signIn: element('button', 'Sign in', [457, 394, 366, 42], { input_type: 'submit' }),
  searchBox: element('input', '', [201, 223, 770, 44], {
    id: 'q',
    name: 'q',
    input_type: 'search',
  }),
  nimbusLink: element('a', 'Nimbus Floor Lamp', [201, 405, 192, 25], {
    href: '/item/nimbus-floor-lamp',
  }),
  auroraLink: element('a', 'Aurora Desk Lamp', [201, 300, 182, 25], {
    href: '/item/aurora-desk-lamp',
  }),
} as const;

/** The demo sign-in page served from `base`. */
export function demoLoginPage(base: string, devicePixelRatio = 1): FakeJailPage {
  const { username, password, signIn } = demoElements;
  return jailPage(
    new URL('/', base).href,
    'Sign in · Clawdie Demo Shop',
    [username, password, signIn],
    devicePixelRatio,
  );
}
