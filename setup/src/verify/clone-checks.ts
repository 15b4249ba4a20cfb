// The checks run against one live clone: its jail-service (token, health, screenshot) and its
// egress (the proxy refuses hosts outside the allowlist and the host's loopback, the refusals are
// recorded under the clone's lease, and the clone's own browser goes through that proxy).
import type { CloneManager } from '@clawdie/hostd/host-kit';
import { type CheckList, eventually, fail } from './check-list.js';
import { type Canary, connectThrough, getThrough } from './egress-probe.js';

export type LeasedClone = Awaited<ReturnType<CloneManager['create']>>;

/** A host the clone's allowlist names; `.invalid` never resolves (RFC 6761). */
export const ALLOWED_DOMAIN = 'example.invalid';
const DISALLOWED_HOST = 'not-allowed.invalid';
const BROWSER_TARGET = 'browser-not-allowed.invalid';

export async function serviceChecks(checks: CheckList, clone: LeasedClone, timeoutMs: number) {
  const { url, token } = clone.service;
  const auth = { authorization: `Bearer ${token}` };
  await checks.run('jail-service refuses a request without its token', async () => {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    if (response.status !== 401) fail(`GET /health without token: HTTP ${response.status}`);
    return 'GET /health without token: 401';
  });
  await checks.run('jail-service /health with its token', async () => {
    const response = await fetch(`${url}/health`, {
      headers: auth,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.text();
    if (response.status !== 200) fail(`HTTP ${response.status}: ${body.slice(0, 200)}`);
    return `200 ${summariseHealth(body)}`;
  });
  await checks.run('jail-service screenshot', async () => {
    const response = await fetch(`${url}/screenshot`, {
      headers: auth,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (response.status !== 200) fail(`HTTP ${response.status}`);
    const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
    if (!jpeg) fail(`not a JPEG (${response.headers.get('content-type')}, ${bytes.length} B)`);
    return `JPEG ${bytes.length} B`;
  });
}

export async function egressChecks(
  checks: CheckList,
  clone: LeasedClone,
  manager: CloneManager,
  canary: Canary,
  allowedDomains: readonly string[],
  /** How long a refusal may take to be recorded (at most 10 s; the request timeout when shorter). */
  timeoutMs = 10_000,
) {
  const proxy = clone.egressProxyUrl;
  const refusedFor = (host: string) =>
    manager.refusalsOf(clone.name, clone.leaseId).filter((refusal) => refusal.host === host);
  const expectRefused = async (what: string, status: number, host: string, reason: string) => {
    if (status !== 403) fail(`${what}: proxy answered ${status}, expected 403`);
    const logged = () => refusedFor(host).some((refusal) => refusal.reason === reason);
    if (!(await eventually(logged, 2000))) {
      fail(`${what}: refused but no '${reason}' refusal in the clone's refusal log`);
    }
    return `${what}: 403, logged as ${reason}`;
  };
  await checks.run('egress proxy in front of the clone', async () => {
    if (!proxy) fail('the clone has no egress proxy');
    if (JSON.stringify(clone.allowedDomains) !== JSON.stringify(allowedDomains)) {
      fail(`allowlist is ${JSON.stringify(clone.allowedDomains)}`);
    }
    return `${proxy}, allowlist [${allowedDomains.join(', ')}]`;
  });
  if (!proxy) return;
  await checks.run('egress refused: CONNECT to a host outside the allowlist', async () =>
    expectRefused(
      `CONNECT ${DISALLOWED_HOST}:443`,
      await connectThrough(proxy, `${DISALLOWED_HOST}:443`),
      DISALLOWED_HOST,
      'not-allowed',
    ),
  );
  await checks.run('egress refused: GET to a host outside the allowlist', async () =>
    expectRefused(
      `GET http://${DISALLOWED_HOST}/`,
      await getThrough(proxy, `http://${DISALLOWED_HOST}/`),
      DISALLOWED_HOST,
      'not-allowed',
    ),
  );
  await checks.run("egress refused: the host's loopback, even allowlisted", async () => {
    const target = `127.0.0.1:${canary.port}`;
    const connect = await expectRefused(
      `CONNECT ${target}`,
      await connectThrough(proxy, target),
      '127.0.0.1',
      'blocked-address',
    );
    const get = await getThrough(proxy, `http://${target}/`);
    if (get !== 403) fail(`GET http://${target}/: proxy answered ${get}, expected 403`);
    if (canary.hits() !== 0) fail(`${canary.hits()} connection(s) reached the loopback listener`);
    return `${connect}; GET 403; listener on ${target} reached 0 times`;
  });
  await checks.run("egress refused: the clone's own browser", async () => {
    const response = await fetch(`${clone.service.url}/actions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${clone.service.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        actions: [{ type: 'navigate', url: `http://${BROWSER_TARGET}/` }],
        timeout_ms: 15_000,
      }),
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    if (
      !(await eventually(() => refusedFor(BROWSER_TARGET).length > 0, Math.min(timeoutMs, 10_000)))
    ) {
      fail(`navigate http://${BROWSER_TARGET}/ (HTTP ${response.status}): no refusal recorded`);
    }
    return `navigate http://${BROWSER_TARGET}/ went through the proxy and was refused`;
  });
}

/** `status=ok browser=Chrome/…` from the jail-service's health body (else its first 120 chars). */
function summariseHealth(body: string): string {
  try {
    const health = JSON.parse(body) as { status?: unknown; browser?: { version?: unknown } };
    const browser = health.browser?.version;
    return `status=${String(health.status)}${typeof browser === 'string' ? ` browser=${browser}` : ''}`;
  } catch {
    return body.slice(0, 120);
  }
}
