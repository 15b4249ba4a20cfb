// The scripted supervisor of the takeover e2e: waits, and real mouse clicks on the interactive
// live view at the spot where a page element is shown (its CSS box in the 1280×800 page).
import assert from 'node:assert/strict';
import type { PageElement } from '@clawdie/kit/jail-api';
import type { HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';

export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 20_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Where the live view shows the centre of `element` (CSS px of the 1280×800 page). */
async function pointInView(page: Page, element: PageElement) {
  const box = await page.$eval('[data-takeover-screen]', (el) => {
    const rect = el.getBoundingClientRect();
    return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
  });
  return {
    x: box.x + ((element.box.x + element.box.width / 2) / 1280) * box.width,
    y: box.y + ((element.box.y + element.box.height / 2) / 800) * box.height,
  };
}

/** A real mouse click on the live view, where `element` is shown. */
export async function clickInView(page: Page, element: PageElement) {
  const { x, y } = await pointInView(page, element);
  await page.mouse.click(x, y);
}

/** A finger tap on the live view (a touch page), where `element` is shown. */
export async function tapInView(page: Page, element: PageElement) {
  const { x, y } = await pointInView(page, element);
  await page.touchscreen.tap(x, y);
}

/** Reads a jail-service's page (elements, state) with its token, as the test's eyes. */
export function jailReader(endpoint: { url: string; token: string }) {
  const get = async <T>(path: string) =>
    (await (
      await fetch(`${endpoint.url}${path}`, {
        headers: { authorization: `Bearer ${endpoint.token}` },
      })
    ).json()) as T;
  return {
    async element(match: (element: PageElement) => boolean) {
      const found = (await get<{ elements: PageElement[] }>('/elements')).elements.find(match);
      assert.ok(found, 'the field is on the page');
      return found;
    },
    /** Waits for the page at `path`, loaded; a timeout says where the page was instead. */
    async onPath(path: string) {
      let last = { url: 'no state read', loading: false };
      await until(path, async () => {
        last = await get<{ url: string; loading: boolean }>('/state');
        return new URL(last.url).pathname === path && !last.loading;
      }).catch((error: Error) => {
        throw new Error(`${error.message} (the page: ${last.url}, loading ${last.loading})`);
      });
    },
  };
}

/** What the view's own `/input` requests got back, in order ("200", "503", "no answer"). */
function watchInputAnswers(page: Page) {
  const answers: string[] = [];
  const isInput = (url: string) => new URL(url).pathname.endsWith('/input');
  const onResponse = (response: HTTPResponse) => {
    if (isInput(response.url())) answers.push(String(response.status()));
  };
  const onFailed = (request: HTTPRequest) => {
    if (isInput(request.url())) answers.push(`no answer (${request.failure()?.errorText})`);
  };
  page.on('response', onResponse);
  page.on('requestfailed', onFailed);
  return {
    answers,
    stop() {
      page.off('response', onResponse);
      page.off('requestfailed', onFailed);
    },
  };
}

/** The supervisor logs in through the live view: username typed, password pasted, code typed. */
export async function logInThroughView(
  page: Page,
  jail: ReturnType<typeof jailReader>,
  site: {
    username: string;
    password: string;
    otp: string;
    requests?: readonly { path: string; method: string; status?: number }[];
  },
) {
  const inputs = watchInputAnswers(page);
  // A wait that times out says what the view showed, what its input got back and what the
  // site answered: lost input, an ended view, a wrong password (401) or no post at all.
  const explained = async (path: string) =>
    jail.onPath(path).catch(async (error: Error) => {
      const view = await page.$eval('[data-takeover]', (el) => ({
        lost: el.getAttribute('data-takeover-input-lost'),
        ended: el.classList.contains('ended'),
        error: el.querySelector('[data-takeover-input-error]')?.textContent ?? '',
      }));
      const seen = (site.requests ?? [])
        .slice(-4)
        .map((r) => `${r.method} ${r.path} ${r.status ?? 'unanswered'}`);
      throw new Error(
        `${error.message}; the view: ${JSON.stringify(view)}; its input answers: ${inputs.answers.join(' ')}; the site saw: ${seen.join(', ')}`,
      );
    });
  try {
    await explained('/login');
    await clickInView(page, await jail.element((e) => e.name === 'username'));
    await page.keyboard.type(site.username);
    await clickInView(page, await jail.element((e) => e.input_type === 'password'));
    // Pasted (the supervisor's clipboard), as a password manager would.
    await page.$eval(
      '[data-takeover-screen]',
      (screen, text) => {
        const data = new DataTransfer();
        data.setData('text/plain', text);
        screen.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
      },
      site.password,
    );
    await page.keyboard.press('Enter');
    await explained('/2fa');
    await clickInView(page, await jail.element((e) => e.name === 'code'));
    await page.keyboard.type(site.otp);
    await page.keyboard.press('Enter');
    await explained('/account');
  } finally {
    inputs.stop();
  }
}
