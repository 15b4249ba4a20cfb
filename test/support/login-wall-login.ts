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

async function fill(
  driver: LoginDriver,
  site: LoginWallSite,
  name: string,
  text: string,
): Promise<void> {
  const field = await fieldNamed(driver, name);
  if (!field) {
    // Which step was lost: the fields the page has now, and what the site answered last.
    const { elements } = await driver.elements();
    const names = elements.map((element) => element.name ?? element.tag).join(', ');
    const answered = site.requests
      .slice(-6)
      .map((request) => `${request.method} ${request.path} ${request.status ?? '…'}`)
      .join('; ');
    assert.fail(`the page has no field named ${name}; its fields: ${names}; the site: ${answered}`);
  }
  const x = Math.round(field.box.x + field.box.width / 2);
  const y = Math.round(field.box.y + field.box.height / 2);
  await driver.run([
    { type: 'click', x, y },
    { type: 'type', text: `${text}\n` },
  ]);
}

/** Logs into the login-wall site through a jail-service's actions: password, then the code. */
export async function loginThroughJail(driver: LoginDriver, site: LoginWallSite): Promise<void> {
  await driver.run([{ type: 'navigate', url: `${site.url}/login` }]);
  const { elements } = await driver.elements();
  const user = elements.find((element) => element.name === 'username');
  assert.ok(user);
  await driver.run([
    {
      type: 'click',
      x: Math.round(user.box.x + user.box.width / 2),
      y: Math.round(user.box.y + user.box.height / 2),
    },
    { type: 'type', text: site.username },
  ]);
  await fill(driver, site, 'password', site.password);
  await fill(driver, site, 'code', site.otp);
  assert.equal(site.issuedCookies().length > 0, true, 'the site issued a session cookie');
}
