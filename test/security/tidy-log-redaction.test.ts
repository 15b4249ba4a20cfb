// Every component's logger (controlplane, hostd, jail-service) comes from the one factory with the
// one redaction list: a line carrying each kind of secret must reach the log with none of them.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { createLogger as controlplaneLogger } from '../../controlplane/src/logger.js';
import { createLogger as hostdLogger } from '../../hostd/src/logger.js';
import { createLogger as jailServiceLogger } from '../../jail-service/src/logger.js';

const JWT =
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvcGVyYXRvci0xIiwic2NvcGUiOiJ0YXNrcyJ9.c2lnbmF0dXJlLW9mLWp3dA';
const SECRETS = {
  token: 'tok-AAAA1111',
  nestedToken: 'tok-BBBB2222',
  secret: 'sec-CCCC3333',
  apiKey: 'key-DDDD4444',
  password: 'pw-EEEE5555',
  bearer: 'bearer-FFFF6666',
  cookie: 'sid=GGGG7777',
  setCookie: 'session=HHHH8888; HttpOnly',
  queryToken: 'qs-IIII9999',
  lease: 'lease-JJJJ0000',
  errorToken: 'err-KKKK1212',
  bound: 'bound-LLLL3434',
  deep: 'deep-MMMM5656',
  textCookie: 'sid=NNNN7878',
} as const;

function capture(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

const components = {
  controlplane: controlplaneLogger,
  hostd: hostdLogger,
  'jail-service': jailServiceLogger,
};

describe('one redaction list for every component logger', () => {
  for (const [name, create] of Object.entries(components)) {
    test(`${name}: tokens, JWTs, secrets, Authorization, cookies, API keys and query tokens are redacted`, () => {
      const { stream, lines } = capture();
      const logger = create('info', stream);
      logger.info({ token: SECRETS.token, provider: { token: SECRETS.nestedToken } }, 'token');
      logger.info({ vault: { secret: SECRETS.secret }, model: { apiKey: SECRETS.apiKey } }, 'keys');
      logger.info({ user: { password: SECRETS.password } }, 'password');
      logger.info(
        {
          req: {
            headers: {
              authorization: `Bearer ${SECRETS.bearer}`,
              cookie: SECRETS.cookie,
              'set-cookie': SECRETS.setCookie,
            },
          },
        },
        'headers',
      );
      logger.info({ url: `http://127.0.0.1:9/v1/events?token=${SECRETS.queryToken}&x=1` }, 'url');
      logger.info({ leaseId: SECRETS.lease, credential: JWT }, `presented ${JWT}`);
      logger.warn({ detail: `header was Authorization: Bearer ${SECRETS.bearer}` }, 'free text');
      logger.warn(`upstream sent\nSet-Cookie: ${SECRETS.textCookie}; Path=/\nfine`);
      logger
        .child({ hostdToken: SECRETS.bound })
        .info({ a: { b: { c: { apiKey: SECRETS.deep } } } }, 'deep');
      logger.error({ err: new Error(`refused token ${JWT} at /x?api_key=${SECRETS.errorToken}`) });
      const text = lines.join('\n');
      assert.equal(lines.length, 10, 'every line was written');
      for (const [kind, value] of Object.entries(SECRETS)) {
        assert.ok(!text.includes(value), `${kind} leaked from ${name}: ${text}`);
      }
      assert.ok(!text.includes(JWT.split('.')[1] ?? JWT), `JWT leaked from ${name}`);
      assert.match(text, /\[redacted\]/);
      assert.ok(lines.every((line) => JSON.parse(line).service === name));
      assert.match(text, /x=1/, 'the rest of a URL stays readable');
    });
  }
});
