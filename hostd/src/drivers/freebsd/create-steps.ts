// Create and start of one task jail, step by step in the order of freebsd-jails.md §2.9, after a
// check that PF is on: dataset → files → epair → PF anchor → rctl → (start) jail -c (Xvfb, then the
// service) → jls → health. Each step is verified against the OS; a failure throws and the caller
// runs the idempotent teardown.
import { pollHealth } from '@clawdie/kit/timing';
import type { CloneSpec } from '../jail-driver.js';
import { keepStartFailure } from '../task-logs.js';
import { epair, jail, pf, preflight, rctl, zfs } from './commands.js';
import { type FreeBsdHost, must, run, stepError } from './freebsd-host.js';
import type { TaskNames } from './names.js';
import { parseRctlRules } from './parse.js';
import {
  JAIL_DISPLAY,
  JAIL_SERVICE_LOG,
  rctlRules,
  renderJailConf,
  renderPfAnchor,
  XVFB_LOG,
} from './render.js';

const CREATE = 'CLONE_CREATE_FAILED';
const START = 'CLONE_START_FAILED';

export interface CreateInput {
  spec: CloneSpec;
  token: string;
  /** Template generation, e.g. `g0001`, recorded as `hostd:gen`. */
  generation: string;
  expiresEpochSeconds: number;
}

/** Makes every resource of the task except the running jail. */
export async function createResources(
  host: FreeBsdHost,
  names: TaskNames,
  input: CreateInput,
): Promise<void> {
  const { layout } = host;
  await requirePfEnabled(host, names);
  await must(
    host,
    zfs.clone(layout.templateSnapshot, names.dataset, {
      quota: layout.quota,
      taskId: input.spec.taskId,
      generation: input.generation,
      expiresEpochSeconds: input.expiresEpochSeconds,
      display: input.spec.display ? JAIL_DISPLAY : null,
    }),
    CREATE,
    names.jail,
  );
  await must(host, zfs.exists(names.dataset), CREATE, names.jail);
  await host.files.write(names.tokenFile, `${input.token}\n`, {
    mode: 0o400,
    uid: layout.serviceUid,
  });
  await host.files.write(names.pfPath, renderPfAnchor(names, layout), { mode: 0o600 });
  await createEpair(host, names);
  await must(host, pf.load(names), CREATE, names.jail);
  await verifyAnchorLoaded(host, names);
  const rules = rctlRules(names, input.spec.limits);
  await must(host, rctl.add(rules), CREATE, names.jail);
  await verifyRctl(host, names, rules.length);
}

async function createEpair(host: FreeBsdHost, names: TaskNames): Promise<void> {
  const created = await must(host, epair.create(names), CREATE, names.jail);
  const hostEnd = created.stdout.trim();
  if (hostEnd !== `${names.epairUnit}a`) {
    throw stepError(CREATE, names.jail, epair.create(names), `unexpected output "${hostEnd}"`);
  }
  await must(host, epair.rename(hostEnd, names.hostIf), CREATE, names.jail);
  await must(host, epair.rename(`${names.epairUnit}b`, names.jailIf), CREATE, names.jail);
  await must(host, epair.addressHostEnd(names, host.layout), CREATE, names.jail);
  const shown = await must(host, epair.show(names.hostIf), CREATE, names.jail);
  // FreeBSD 14 prints `\tinet 10.78.0.29 netmask 0xfffffffc broadcast 10.78.0.31`
  // (sbin/ifconfig/af_inet.c in_status_nl()): the address is followed by a space, so `…0.2`
  // never matches `…0.29`.
  if (!shown.stdout.includes(`\tinet ${names.hostIp} `)) {
    throw stepError(CREATE, names.jail, epair.show(names.hostIf), 'host end has no address');
  }
}

/**
 * Fails closed: pfctl loads an anchor whatever PF's status (sbin/pfctl/pfctl.c: only -e/-d change
 * it), and with PF disabled nothing filters the jail's epair, so the jail could reach the host and
 * beyond directly. Checked per clone, not only at start-up: `pfctl -d` may come later.
 */
async function requirePfEnabled(host: FreeBsdHost, names: TaskNames): Promise<void> {
  const info = await run(host, preflight.pfInfo());
  if (!/^Status: Enabled\b/m.test(info.stdout)) {
    const detail =
      'PF is not enabled, so nothing would filter the task jail (pfctl -e; pf_enable="YES" in /etc/rc.conf)';
    throw stepError(CREATE, names.jail, preflight.pfInfo(), detail);
  }
}

async function verifyAnchorLoaded(host: FreeBsdHost, names: TaskNames): Promise<void> {
  const shown = await must(host, pf.showRules(names.anchor), CREATE, names.jail);
  if (shown.stdout.trim() === '') {
    throw stepError(CREATE, names.jail, pf.showRules(names.anchor), 'anchor has no rules');
  }
}

async function verifyRctl(host: FreeBsdHost, names: TaskNames, expected: number): Promise<void> {
  const shown = await run(host, rctl.show(names.rctlSubject));
  const count = parseRctlRules(shown.stdout).length;
  if (count < expected) {
    const detail = `${count} of ${expected} rules present`;
    throw stepError(CREATE, names.jail, rctl.show(names.rctlSubject), detail);
  }
}

export interface StartInput {
  egressProxyUrl: string | null;
  /** The jail's X display (`hostd:display` of its dataset), null: none. */
  display: string | null;
  healthTimeoutMs: number;
  signal?: AbortSignal;
}

/** Writes jail.conf, creates the jail, proves it exists and waits for the service's health. */
export async function startJail(
  host: FreeBsdHost,
  names: TaskNames,
  input: StartInput,
): Promise<void> {
  const token = (await host.files.read(names.tokenFile))?.trim();
  if (!token) throw stepError(START, names.jail, ['read', names.tokenFile], 'token file missing');
  const conf = renderJailConf(names, host.layout, input.egressProxyUrl, input.display);
  await host.files.write(names.confPath, conf, { mode: 0o600 });
  try {
    await must(host, jail.create(names), START, names.jail);
    await must(host, jail.jid(names.jail, false), START, names.jail);
    await waitHealthy(host, names, token, input);
  } catch (error) {
    throw input.signal?.aborted ? error : await withStartLogs(host, names, error);
  }
}

/**
 * The failed jail's own logs (console, jail-service, Xvfb) copied to the host before the caller
 * destroys the clone; the error names the copy.
 */
async function withStartLogs(host: FreeBsdHost, names: TaskNames, error: unknown) {
  const inJail = (path: string) => host.files.read(`${names.root}${path}`);
  const kept = await keepStartFailure(
    host.files,
    host.taskLogs,
    host.layout.namespace,
    names.jail,
    host.now(),
    [
      { title: names.consoleLog, text: await host.files.read(names.consoleLog) },
      { title: `${names.jail}:${JAIL_SERVICE_LOG}`, text: await inJail(JAIL_SERVICE_LOG) },
      { title: `${names.jail}:${XVFB_LOG}`, text: await inJail(XVFB_LOG) },
    ],
  );
  if (kept === null || !(error instanceof Error)) return error;
  error.message = `${error.message} (the jail's logs: ${kept})`;
  return error;
}

async function waitHealthy(
  host: FreeBsdHost,
  names: TaskNames,
  token: string,
  input: StartInput,
): Promise<void> {
  // The repository's one poller, over the host's health check, clock and sleep (virtual in the fake).
  const result = await pollHealth({
    url: names.serviceUrl,
    token,
    timeoutMs: input.healthTimeoutMs,
    intervalMs: 100,
    maxIntervalMs: 1000,
    probe: host.healthCheck,
    now: host.now,
    sleep: host.sleep,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  if (result.ok) return;
  input.signal?.throwIfAborted();
  const what = `no healthy answer within ${input.healthTimeoutMs} ms`;
  throw stepError(START, names.jail, ['GET', `${names.serviceUrl}/health`], what);
}
