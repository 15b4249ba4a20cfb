import assert from 'node:assert/strict';
import type { Action, ElementsResponse } from '@clawdie/kit/jail-api';
import type { LoginWallSite } from './login-wall-site.js';

/** What a jail-service client offers that a scripted login needs. */
export interface LoginDriver {
  run(actions: Action[]): Promise<unknown>;
  elements(): Promise<ElementsResponse>;
}

/** The page's field named `name`: the step before it submitted with Enter, and the next page
 * may still be loading when the action returns on a busy host (bounded: 10 s). */
async function fieldNamed(driver: LoginDriver, name: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { elements } = await driver.elements();
    const field = elements.find((element) => element.name === name);
    if (field || Date.now() > deadline) return field;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Field = ElementsResponse['elements'][number];

/** How often a login step is tried again when the page shows its typing was lost. */
const ATTEMPTS = 3;

/** Clicks the middle of `field`, then types `text` (a trailing newline presses Enter). */
async function typeInto(driver: LoginDriver, field: Field, text: string): Promise<void> {
  const x = Math.round(field.box.x + field.box.width / 2);
  const y = Math.round(field.box.y + field.box.height / 2);
  await driver.run([
    { type: 'click', x, y },
    { type: 'type', text },
  ]);
}

/** The fields the page has now and what the site answered last: where a lost step left us. */
async function whereWeAre(driver: LoginDriver, site: LoginWallSite): Promise<string> {
  const { elements } = await driver.elements();
  const names = elements.map((element) => element.name ?? element.tag).join(', ');
  const answered = site.requests
    .slice(-6)
    .map((request) => `${request.method} ${request.path} ${request.status ?? '…'}`)
    .join('; ');
  return `the page's fields: ${names || 'none'}; the site: ${answered}`;
}

/** Up to 10 s for the site to issue a session cookie beyond its first `before` ones. */
async function signedIn(site: LoginWallSite, before: number): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (site.issuedCookies().length <= before && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return site.issuedCookies().length > before;
}

/** The page's field named `name`, or a failure that says where the login is. */
async function mustHave(driver: LoginDriver, site: LoginWallSite, name: string): Promise<Field> {
  const field = await fieldNamed(driver, name);
  if (!field) assert.fail(`the page has no ${name} field; ${await whereWeAre(driver, site)}`);
  return field;
}

/**
 * Logs into the login-wall site through a jail-service's actions: user name and password, then
 * the one-time code. A step whose typing the page shows was lost is done again, as a person (or
 * the model) would on seeing it: a click just after a load sometimes does not focus the field it
 * hits (seen under load in real Chromium; docs/performance.md, "Test suite"). Each retry is said
 * on stderr; three losses in a row fail.
 */
export async function loginThroughJail(driver: LoginDriver, site: LoginWallSite): Promise<void> {
  const lost = async (step: string, attempt: number) => {
    const where = await whereWeAre(driver, site);
    assert.ok(attempt < ATTEMPTS, `${step} ${attempt} times; ${where}`);
    process.stderr.write(`[login] ${step} (attempt ${attempt}); ${where}\n`);
  };
  for (let attempt = 1; ; attempt += 1) {
    await driver.run([{ type: 'navigate', url: `${site.url}/login` }]);
    await typeInto(driver, await mustHave(driver, site, 'username'), site.username);
    await typeInto(driver, await mustHave(driver, site, 'password'), `${site.password}\n`);
    if (await fieldNamed(driver, 'code')) break;
    await lost('no code field after the password', attempt);
  }
  for (let attempt = 1; ; attempt += 1) {
    // Again: the code form afresh (a wrong code is answered by a page without it).
    if (attempt > 1) await driver.run([{ type: 'navigate', url: `${site.url}/2fa` }]);
    const before = site.issuedCookies().length;
    await typeInto(driver, await mustHave(driver, site, 'code'), `${site.otp}\n`);
    if (await signedIn(site, before)) return;
    await lost('no session cookie after the code', attempt);
  }
}
