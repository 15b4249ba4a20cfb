import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local site behind a login wall, for takeover and saved-session tests: `/account` needs the
 * session cookie; without it the visitor is sent to `/login` (a password form), then `/2fa` (a
 * one-time-code field), and only then gets the cookie. `/captcha` shows reCAPTCHA-, hCaptcha- and
 * Turnstile-like iframes (served from this site, shaped like the real widgets' frames). `/typed` is
 * a form for typing tests: it posts its two fields and the named keys the page saw; `/typed-slow`
 * is the same form on a page that spends 25 ms on every key.
 * Every secret is random per site, so a leak search can look for exact values.
 */
export interface LoginWallSite {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  username: string;
  password: string;
  /** The one-time code `/2fa` accepts. */
  otp: string;
  /** Session cookie values issued so far (name `sid`, HttpOnly). */
  issuedCookies(): string[];
  /** The localStorage value `/account` stores after a login (key `clawdie-note`). */
  storageNote: string;
  /**
   * The value `/account` stores in IndexedDB (database `clawdie-site`, store `notes`, key `note`)
   * when it finds none there. The page then shows "IndexedDB note read: …" only when its own
   * script read this exact value from IndexedDB, and its title ends in " · idb <state>" with
   * state `stored` (it wrote it), `read` (it found it) or `other` (it found something else).
   */
  idbNote: string;
  /** Those states as each `/account` page reported them (`POST /idb-report`), in order. */
  idbReports(): string[];
  /**
   * What `/typed` posted, in order: its fields `first` and `second`, and `keys`, the page's own
   * record of the named keys (Enter, Backspace, Tab, …) its keydown listener saw, and of
   * characters typed with Shift held (`shift+a`), space-separated.
   */
  typed(): { first: string; second: string; keys: string }[];
  /**
   * Requests so far: path, whether they carried a valid session cookie, and the status the site
   * answered (once it has: a wrong password is a 401 at `/login`, not a missing post).
   */
  requests: { path: string; method: string; signedIn: boolean; status?: number }[];
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const loginForm = page(
  'Sign in',
  `<h1>Sign in</h1><form method="post" action="/login">
<label>User <input name="username" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form>`,
);

const otpForm = page(
  'Two-step verification',
  `<h1>Enter the code</h1><form method="post" action="/2fa">
<input name="code" inputmode="numeric" autocomplete="one-time-code">
<button type="submit">Verify</button></form>`,
);

const typingForm = (slow: boolean) =>
  page(
    'Type here',
    `<h1>Type here</h1><form method="post" action="/typed">
<label>First <input name="first"></label> <label>Second <input name="second"></label>
<input type="hidden" name="keys"><button type="submit">Done</button></form>
<script>const keys = document.querySelector('[name="keys"]');
const slow = ${slow};
document.addEventListener('keydown', (e) => {
  if (e.key.length > 1) keys.value = (keys.value + ' ' + e.key).trim();
  else if (e.shiftKey) keys.value = (keys.value + ' shift+' + e.key).trim();
  // A page busy on every key (25 ms), so a long burst takes seconds.
  if (slow) for (const end = performance.now() + 25; performance.now() < end; );
}, true);</script>`,
  );

const captchaPage = page(
  'Are you human?',
  `<h1>Check</h1>
<iframe title="reCAPTCHA" src="/recaptcha/api2/anchor?k=fake" width="304" height="78"></iframe>
<iframe title="Widget containing checkbox for hCaptcha security challenge" data-hcaptcha-widget-id="x" src="/hcaptcha/checkbox" width="304" height="78"></iframe>
<iframe title="Widget containing a Cloudflare security challenge" src="/cdn-cgi/challenge-platform/turnstile" width="300" height="65"></iframe>`,
);

const ACCOUNT_IDB = `(() => {
  const show = (state, text) => {
    document.getElementById('idb').textContent = text;
    document.title = 'Account · idb ' + state;
    void fetch('/idb-report', { method: 'POST', body: state }).catch(() => undefined);
  };
  const request = indexedDB.open('clawdie-site', 1);
  request.onupgradeneeded = () => request.result.createObjectStore('notes');
  request.onsuccess = () => {
    const tx = request.result.transaction('notes', 'readwrite');
    const store = tx.objectStore('notes');
    const read = store.get('note');
    read.onsuccess = () => {
      const found = read.result;
      if (found === undefined) store.put({ note: NOTE, at: new Date() }, 'note');
      tx.oncomplete = () => {
        request.result.close();
        if (found === undefined) show('stored', 'IndexedDB: stored a note');
        else if (found.note === NOTE && found.at instanceof Date) show('read', 'IndexedDB note read: ' + found.note);
        else show('other', 'IndexedDB: another note');
      };
    };
  };
})();`;

const accountPage = (user: string, note: string, idbNote: string) =>
  page(
    'Account',
    `<h1 id="who">Signed in as ${user}</h1><p id="note"></p><p id="idb"></p>
<script>if (!localStorage.getItem('clawdie-note')) localStorage.setItem('clawdie-note', ${JSON.stringify(note)});
document.getElementById('note').textContent = 'note: ' + localStorage.getItem('clawdie-note');
const NOTE = ${JSON.stringify(idbNote)};
${ACCOUNT_IDB}</script>`,
  );

function cookiesOf(request: IncomingMessage): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name) jar.set(name, value.join('='));
  }
  return jar;
}

async function textOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const formOf = async (request: IncomingMessage) => new URLSearchParams(await textOf(request));

function redirect(response: ServerResponse, to: string, cookie?: string): void {
  response.writeHead(302, { location: to, ...(cookie ? { 'set-cookie': cookie } : {}) });
  response.end();
}

function html(response: ServerResponse, body: string, status = 200): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(body);
}

/** Starts the site on 127.0.0.1:0. */
export async function startLoginWallSite(): Promise<LoginWallSite> {
  const username = 'alice';
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const otp = String(randomInt(100000, 999999));
  const storageNote = `note-${randomBytes(6).toString('hex')}`;
  const idbNote = `idb-${randomBytes(6).toString('hex')}`;
  const sessions = new Set<string>();
  const pending = new Set<string>();
  const requests: LoginWallSite['requests'] = [];
  const idbReports: string[] = [];
  const typed: ReturnType<LoginWallSite['typed']> = [];

  const server = createServer(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path === '/idb-report' && request.method === 'POST') {
      // A report channel of the fixture, not a page: kept out of `requests`.
      idbReports.push((await textOf(request)).slice(0, 20));
      response.writeHead(204).end();
      return;
    }
    const jar = cookiesOf(request);
    const signedIn = sessions.has(jar.get('sid') ?? '');
    const entry: LoginWallSite['requests'][number] = {
      path,
      method: request.method ?? 'GET',
      signedIn,
    };
    requests.push(entry);
    response.on('finish', () => {
      entry.status = response.statusCode;
    });
    const post = request.method === 'POST';
    if (path === '/' || path === '/account') {
      if (signedIn) return html(response, accountPage(username, storageNote, idbNote));
      return redirect(response, '/login');
    }
    if (path === '/login' && !post) return html(response, loginForm);
    if (path === '/login') {
      const form = await formOf(request);
      if (form.get('username') !== username || form.get('password') !== password)
        return html(response, page('Sign in', '<p id="error">Wrong user or password</p>'), 401);
      const token = randomBytes(12).toString('hex');
      pending.add(token);
      return redirect(response, '/2fa', `pre=${token}; Path=/; HttpOnly; SameSite=Lax`);
    }
    if (path === '/2fa' && !post) return html(response, otpForm);
    if (path === '/2fa') {
      const form = await formOf(request);
      const pre = jar.get('pre') ?? '';
      if (!pending.has(pre) || form.get('code') !== otp)
        return html(response, page('Two-step verification', '<p id="error">Wrong code</p>'), 401);
      pending.delete(pre);
      const sid = randomBytes(16).toString('hex');
      sessions.add(sid);
      return redirect(response, '/account', `sid=${sid}; Path=/; HttpOnly; SameSite=Lax`);
    }
    if (path === '/typed' && !post) return html(response, typingForm(false));
    if (path === '/typed-slow') return html(response, typingForm(true));
    if (path === '/typed') {
      const form = await formOf(request);
      const field = (name: string) => form.get(name) ?? '';
      typed.push({ first: field('first'), second: field('second'), keys: field('keys') });
      // Not echoed: what was typed stays out of the page (and so out of the model's view).
      return html(response, page('Received', '<p id="received">Received</p>'));
    }
    if (path === '/captcha') return html(response, captchaPage);
    if (
      path.startsWith('/recaptcha/') ||
      path.startsWith('/hcaptcha/') ||
      path.startsWith('/cdn-cgi/')
    )
      return html(response, page('widget', '<label><input type="checkbox"> I am human</label>'));
    return html(response, page('not found', 'not found'), 404);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    username,
    password,
    otp,
    storageNote,
    idbNote,
    issuedCookies: () => [...sessions],
    idbReports: () => [...idbReports],
    typed: () => [...typed],
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
